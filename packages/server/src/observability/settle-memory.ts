import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One compacting collection once a started server is idle (issue 44, item 4). A start allocates
 * fast while it loads and builds the app, so V8 grows its young generation (to 16 MB) and keeps
 * it, with the start-up's garbage in the old generation, until a later collection: a server
 * nobody calls holds ~12 MB it will never use. V8 gives that back only in a collection made to
 * reduce memory (the "last resort" kind, which also shrinks the young generation); nothing in an
 * idle Node process asks for one. So the first second after start in which the event loop was
 * nearly idle runs one, synchronously (~60 ms on a 2-core VM). A server busy from its first
 * second is looked at again each second and left alone after `tries`: its heap is in use.
 */
export interface SettleMemoryOptions {
  /** First look after start, and the interval between looks, ms. Default 1 000. */
  intervalMs?: number;
  /** Looks before giving up on a server that stays busy. Default 10. */
  tries?: number;
  /** Event-loop utilisation over the last interval below which the server counts as idle. Default 0.05. */
  idleBelow?: number;
  /** The last interval's utilisation (tests); by default the event loop's own. */
  utilisation?: () => number;
  /** Told once the collection ran, with RSS before and after (bytes) and how long it took (ms). */
  onSettled?: (result: { rssBefore: number; rssAfter: number; ms: number }) => void;
}

export interface SettleMemory {
  /** Stops looking (the server is closing). */
  cancel(): void;
}

type Gc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * V8's own collector, as `node --expose-gc` would give it: the flag is set only while a fresh
 * context is made to read it, so no other context (and no code of ours) sees a `gc`.
 */
function collector(): Gc | undefined {
  const existing = (globalThis as { gc?: Gc }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    return typeof gc === 'function' ? (gc as Gc) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

function eventLoopUtilisation(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, last);
    last = now;
    return since.utilization;
  };
}

export function settleMemoryWhenIdle(opts: SettleMemoryOptions = {}): SettleMemory {
  const intervalMs = opts.intervalMs ?? 1_000;
  const idleBelow = opts.idleBelow ?? 0.05;
  const utilisation = opts.utilisation ?? eventLoopUtilisation();
  let left = opts.tries ?? 10;
  let timer: NodeJS.Timeout | undefined;
  const look = (): void => {
    timer = undefined;
    left--;
    if (utilisation() >= idleBelow) {
      if (left > 0) schedule();
      return;
    }
    const gc = collector();
    if (gc === undefined) return;
    const rssBefore = process.memoryUsage.rss();
    const from = performance.now();
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    opts.onSettled?.({ rssBefore, rssAfter: process.memoryUsage.rss(), ms: performance.now() - from });
  };
  const schedule = (): void => {
    timer = setTimeout(look, intervalMs);
    // Never what keeps a process alive.
    timer.unref();
  };
  schedule();
  return {
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
