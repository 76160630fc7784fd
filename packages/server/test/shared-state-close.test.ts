import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
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

  it('start-up is not an outage: a first connection dropped, then connected on the retry, says nothing', async () => {
    const { said, events } = world();
    // A loopback proxy to the test Redis that drops the first connection (as a connect timeout
    // while start-up work holds the event loop would), then forwards.
    const target = new URL(TEST_REDIS_URL);
    let connections = 0;
    const open = new Set<Socket>();
    const proxy = createServer((client) => {
      open.add(client);
      if (connections++ === 0) return client.destroy();
      const upstream = connect(Number(target.port || 6379), target.hostname);
      open.add(upstream);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as AddressInfo).port;
    const shared = await createSharedState(`redis://127.0.0.1:${port}`, `hp-test-start-${process.pid}:`, events);
    try {
      const deadline = Date.now() + 5000;
      while (shared.redis !== 'up' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(shared.redis).toBe('up');
      expect(connections).toBeGreaterThan(1);
      expect(said).toEqual([]);
    } finally {
      await shared.close();
      for (const s of open) s.destroy();
      await new Promise((r) => proxy.close(r));
    }
  });
});
