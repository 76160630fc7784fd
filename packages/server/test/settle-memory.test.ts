import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { settleMemoryWhenIdle } from '../src/observability/settle-memory.js';

/** The one compacting collection an idle server runs after start (issue 44, item 4). */
const newSpace = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

/** Allocates enough short- and long-lived objects that V8 grows its young generation, as a start does. */
function churn(): unknown[] {
  const kept: unknown[] = [];
  for (let i = 0; i < 400_000; i++) {
    const o = { i, s: `value ${i}`, a: [i, i + 1] };
    if (i % 4 === 0) kept.push(o);
  }
  return kept;
}

describe('settleMemoryWhenIdle', () => {
  it('runs one collection in the first idle interval, which gives back the grown young generation', async () => {
    let kept: unknown[] | undefined = churn();
    const grown = newSpace();
    kept = undefined;
    expect(kept).toBeUndefined();
    const results: { rssBefore: number; rssAfter: number; ms: number }[] = [];
    const looks: number[] = [];
    settleMemoryWhenIdle({
      intervalMs: 20,
      utilisation: () => (looks.push(1), 0),
      onSettled: (r) => results.push(r),
    });
    await new Promise((r) => setTimeout(r, 150));
    // Once, at the first look, and never again.
    expect(looks).toHaveLength(1);
    expect(results).toHaveLength(1);
    expect(results[0]!.rssBefore).toBeGreaterThan(0);
    expect(results[0]!.ms).toBeGreaterThan(0);
    // The young generation had grown past its start size; the collection shrinks it.
    expect(grown).toBeGreaterThan(2 * 1048576);
    expect(newSpace()).toBeLessThan(grown);
    // No `gc` is left on the global object of this context.
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });

  /** Runs one with the event loop's utilisation read from `pattern` (then idle); what it saw and how often it settled. */
  async function lookingAt(pattern: number[], tries?: number) {
    const seen: number[] = [];
    const result = { seen, settled: 0 };
    settleMemoryWhenIdle({
      intervalMs: 10,
      ...(tries === undefined ? {} : { tries }),
      utilisation: () => {
        const u = pattern[seen.length] ?? 0;
        seen.push(u);
        return u;
      },
      onSettled: () => result.settled++,
    });
    await new Promise((r) => setTimeout(r, 150));
    return result;
  }

  it('waits while the server is busy, and gives up after its tries', async () => {
    const { seen, settled } = await lookingAt([0.9, 0.5, 0.3], 3);
    expect(seen).toEqual([0.9, 0.5, 0.3]);
    expect(settled).toBe(0);
  });

  it('runs at the first idle look after busy ones, and cancel stops it', async () => {
    const { seen, settled } = await lookingAt([0.8, 0.01]);
    expect(seen).toEqual([0.8, 0.01]);
    expect(settled).toBe(1);

    let looked = 0;
    const cancelled = settleMemoryWhenIdle({
      intervalMs: 10,
      utilisation: () => (looked++, 0),
      onSettled: () => {
        throw new Error('cancelled, yet it collected');
      },
    });
    cancelled.cancel();
    await new Promise((r) => setTimeout(r, 60));
    expect(looked).toBe(0);
  });
});
