import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { CacheScope } from '../src/cache/caches.js';
import { RedisChangeFeed } from '../src/cluster/change-feed.js';
import { redisAvailable, TEST_REDIS_URL, waitFor } from './helpers.js';

/**
 * The change feed's promise (docs/architecture.md, "a request that follows a write's answer — on
 * any instance — never sees the state before it"): `publish` resolves only once every other
 * subscribed instance has dropped the caches it names. An instance is held back by pausing its
 * subscription socket, which is what a busy event loop does to a message that arrived.
 */
describe.runIf(redisAvailable)('the Redis change feed waits for every instance', () => {
  const opened: RedisChangeFeed[] = [];
  const channel = `hp-test-feed-${process.pid}-${randomBytes(4).toString('hex')}`;
  afterEach(async () => {
    for (const feed of opened.splice(0)) await feed.close();
  });

  interface Node {
    feed: RedisChangeFeed;
    subscriber: Redis;
    seen: CacheScope[];
  }

  async function node(log: string[], name: string, options: ConstructorParameters<typeof RedisChangeFeed>[4] = {}) {
    const subscriber = new Redis(TEST_REDIS_URL);
    const seen: CacheScope[] = [];
    const feed = new RedisChangeFeed(
      new Redis(TEST_REDIS_URL),
      subscriber,
      (scope) => {
        // The resync on subscribing drops everything; only the writes' messages are logged.
        if (scope.kind === 'all') return;
        seen.push(scope);
        log.push(`${name} dropped ${scope.kind}`);
      },
      channel,
      options,
    );
    opened.push(feed);
    await waitFor(() => feed.ready, 'the subscription', 5000);
    return { feed, subscriber, seen } satisfies Node;
  }

  it('publish resolves only after a busy instance has read the message and dropped its caches', async () => {
    const log: string[] = [];
    const a = await node(log, 'A');
    const b = await node(log, 'B');
    b.subscriber.stream.pause();
    let resolved = false;
    const published = a.feed.publish({ kind: 'keys' }).then(() => {
      resolved = true;
      log.push('A answered');
    });
    await sleep(300);
    expect(resolved, 'the write answered while an instance had not read the invalidation').toBe(false);
    expect(b.seen).toEqual([]);
    b.subscriber.stream.resume();
    await published;
    expect(log).toEqual(['B dropped keys', 'A answered']);
    expect(a.feed.ackTimeouts).toBe(0);
    // The sender does not invalidate itself through the feed (its write did that directly).
    expect(a.seen).toEqual([]);
  });

  it('with three instances, the write waits for both others', async () => {
    const log: string[] = [];
    const a = await node(log, 'A');
    await node(log, 'B');
    const c = await node(log, 'C');
    c.subscriber.stream.pause();
    const published = a.feed.publish({ kind: 'wallets', merchantId: 'm_1' }).then(() => log.push('A answered'));
    await sleep(200);
    expect(log).toEqual(['B dropped wallets']);
    c.subscriber.stream.resume();
    await published;
    expect(log).toEqual(['B dropped wallets', 'C dropped wallets', 'A answered']);
    expect(c.seen).toEqual([{ kind: 'wallets', merchantId: 'm_1' }]);
  });

  it('an instance that never confirms holds up one write for the ack wait only, is reported, and is not waited for again until it answers', async () => {
    const log: string[] = [];
    let timeouts = 0;
    // Long enough that the silent instance's late ack of the second write arrives within it, even on a busy machine.
    const a = await node(log, 'A', { ackWaitMs: 800, onAckTimeout: () => timeouts++ });
    const b = await node(log, 'B');
    b.subscriber.stream.pause();
    const started = performance.now();
    await a.feed.publish({ kind: 'fees' });
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(790);
    expect(waited).toBeLessThan(3000);
    expect(a.feed.ackTimeouts).toBe(1);
    expect(timeouts).toBe(1);
    expect(b.seen).toEqual([]);
    // Still silent: the next write does not wait for it (Redis still counts it as a subscriber).
    const again = performance.now();
    await a.feed.publish({ kind: 'catalog' });
    expect(performance.now() - again).toBeLessThan(200);
    expect(a.feed.ackTimeouts).toBe(1);
    // It answers again: its late acks count, and the write after that waits for it once more.
    b.subscriber.stream.resume();
    await waitFor(() => b.seen.length >= 2, "B's late copies", 2000);
    expect(b.seen).toEqual([{ kind: 'fees' }, { kind: 'catalog' }]);
    await sleep(100);
    b.subscriber.stream.pause();
    let resolved = false;
    const third = a.feed.publish({ kind: 'keys' }).then(() => {
      resolved = true;
    });
    await sleep(150);
    expect(resolved, 'the instance answered again, so a write waits for it again').toBe(false);
    b.subscriber.stream.resume();
    await third;
    expect(b.seen.at(-1)).toEqual({ kind: 'keys' });
    expect(a.feed.ackTimeouts).toBe(1);
  });

  it('a message that is not ours drops every cache and takes nothing down', async () => {
    const log: string[] = [];
    const dropped: CacheScope[] = [];
    const subscriber = new Redis(TEST_REDIS_URL);
    const feed = new RedisChangeFeed(new Redis(TEST_REDIS_URL), subscriber, (scope) => dropped.push(scope), channel);
    opened.push(feed);
    await waitFor(() => feed.ready, 'the subscription', 5000);
    dropped.length = 0;
    const raw = new Redis(TEST_REDIS_URL);
    try {
      const texts = [
        'null',
        '1',
        '"x"',
        '{}',
        '{"from":"x"}',
        '{"from":"x","scope":null}',
        '{"from":1,"scope":{"kind":"keys"}}',
        'not json',
      ];
      for (const text of texts) await raw.publish(channel, text);
      await waitFor(() => dropped.length >= texts.length, 'a drop for every message', 5000);
      expect(dropped).toEqual(texts.map(() => ({ kind: 'all' })));
      // Still serving: a write of its own is still answered.
      await feed.publish({ kind: 'keys' });
      expect(log).toEqual([]);
    } finally {
      raw.disconnect();
    }
  });

  it("a write answers at once when this instance's own subscription closes (no ack could reach it)", async () => {
    const log: string[] = [];
    const a = await node(log, 'A', { ackWaitMs: 5000 });
    const b = await node(log, 'B');
    b.subscriber.stream.pause();
    const started = performance.now();
    const pending = a.feed.publish({ kind: 'keys' });
    await sleep(100);
    a.subscriber.disconnect();
    await pending;
    expect(performance.now() - started).toBeLessThan(2000);
    b.subscriber.stream.resume();
  });

  it('a lone instance answers as soon as its own copy comes back', async () => {
    const a = await node([], 'A', { ackWaitMs: 5000 });
    const started = performance.now();
    await a.feed.publish({ kind: 'keys' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(a.feed.ackTimeouts).toBe(0);
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
