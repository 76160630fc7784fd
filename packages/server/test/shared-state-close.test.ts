import { describe, expect, it } from 'vitest';
import { createSharedState } from '../src/cluster/shared-state.js';
import { redisAvailable, TEST_REDIS_URL } from './helpers.js';

describe.runIf(redisAvailable)('shared state over a real Redis', () => {
  const world = () => {
    const said: string[] = [];
    return {
      said,
      events: {
        onRemoteInvalidation: () => undefined,
        warn: (m: string) => said.push(`warn: ${m}`),
        info: (m: string) => said.push(`info: ${m}`),
      },
    };
  };

  it('a graceful close says nothing: "Redis unreachable" is for outages, not for our own shutdown', async () => {
    const { said, events } = world();
    const shared = await createSharedState(TEST_REDIS_URL, `hp-test-close-${process.pid}:`, events);
    const deadline = Date.now() + 5000;
    while (shared.redis !== 'up' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(shared.redis).toBe('up');
    await shared.close();
    // ioredis reports 'close' and 'end' after quit resolves: give them their turn.
    await new Promise((r) => setTimeout(r, 200));
    expect(said).toEqual([]);
  });

  it('an unreachable Redis still warns once, naming the error', async () => {
    const { said, events } = world();
    // A loopback port nothing listens on (port 1 is privileged and unused here): refused at once.
    const shared = await createSharedState('redis://127.0.0.1:1', 'hp-test-down:', events);
    const deadline = Date.now() + 5000;
    while (said.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await shared.close();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^warn: Redis unreachable \(.*ECONNREFUSED.*\)/);
  });
});
