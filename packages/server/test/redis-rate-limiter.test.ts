import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../src/cluster/redis.js';
import { RedisRateLimiter } from '../src/cluster/redis-rate-limiter.js';
import { redisAvailable, TEST_REDIS_URL } from './helpers.js';

describe.runIf(redisAvailable)('Redis rate limiter (real Redis)', () => {
  const prefix = `hp_test_${randomBytes(4).toString('hex')}:`;
  const redis = connectRedis(TEST_REDIS_URL, () => undefined);
  const fallbacks: Error[] = [];
  const limiter = new RedisRateLimiter(redis, (e) => fallbacks.push(e), prefix);
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts hits that arrive together exactly: 50 at once with a limit of 20 allow 20', async () => {
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('k1', 20, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
    expect(new Set(results.map((r) => r.remaining)).size).toBeGreaterThan(1);
    expect(results.every((r) => r.resetSeconds >= 1 && r.resetSeconds <= 60)).toBe(true);
    expect(Number(await redis.get(`${prefix}k1`))).toBe(50);
    expect(fallbacks).toHaveLength(0);
  });

  it('failure gate: a slot whose release never arrives lapses on its own, even while others keep being taken', async () => {
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
    const short = new RedisRateLimiter(redis, (e) => fallbacks.push(e), prefix, 300);
    // Two slots taken and never settled (an instance that died mid-attempt).
    expect((await short.reserve('gate-leak', 3, 60_000)).allowed).toBe(true);
    expect((await short.reserve('gate-leak', 3, 60_000)).allowed).toBe(true);
    // A third is taken and given back repeatedly: under the old shared counter each new slot
    // re-armed the expiry of the two lost ones, so they never lapsed.
    const until = Date.now() + 600;
    while (Date.now() < until) {
      const slot = await short.reserve('gate-leak', 3, 60_000);
      expect(slot.allowed).toBe(true);
      slot.settle(false);
      await new Promise((r) => setTimeout(r, 50));
    }
    // The lost slots have lapsed: all three can be taken at once again, without waiting.
    const started = Date.now();
    const three = await Promise.all([0, 1, 2].map(() => short.reserve('gate-leak', 3, 60_000)));
    expect(three.every((s) => s.allowed)).toBe(true);
    expect(Date.now() - started).toBeLessThan(200);
    for (const s of three) if (s.allowed) s.settle(false);
    expect(fallbacks).toHaveLength(0);
  });

  it('shares the count between two limiters (two instances)', async () => {
    const other = new RedisRateLimiter(redis, () => undefined, prefix);
    const a = await Promise.all(Array.from({ length: 7 }, () => limiter.hit('k2', 10, 60_000)));
    const b = await Promise.all(Array.from({ length: 7 }, () => other.hit('k2', 10, 60_000)));
    expect([...a, ...b].filter((r) => r.allowed)).toHaveLength(10);
    expect((await limiter.peek('k2', 10, 60_000)).allowed).toBe(false);
  });

  it('reserve across two limiters: of 50 attempts that all fail, exactly 20 are let through; then the bucket is closed', async () => {
    const other = new RedisRateLimiter(redis, () => undefined, prefix);
    const slots = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? other : limiter).reserve('g1', 20, 60_000).then((slot) => {
          // Each admitted attempt fails a little later, as an evaluation would.
          if (slot.allowed) setTimeout(() => slot.settle(true), 5);
          return slot;
        }),
      ),
    );
    expect(slots.filter((s) => s.allowed)).toHaveLength(20);
    expect(slots.filter((s) => !s.allowed).every((s) => s.result.resetSeconds >= 1)).toBe(true);
    expect((await limiter.reserve('g1', 20, 60_000)).allowed).toBe(false);
    expect(fallbacks).toHaveLength(0);
  });

  it('reserve: attempts that succeed give their slot back, so a burst larger than the limit all gets through', async () => {
    const slots = await Promise.all(
      Array.from({ length: 40 }, () =>
        limiter.reserve('g2', 5, 60_000).then((slot) => {
          if (slot.allowed) setTimeout(() => slot.settle(false), 2);
          return slot;
        }),
      ),
    );
    expect(slots.every((s) => s.allowed)).toBe(true);
  });

  it('falls back to in-process counting when Redis does not answer', async () => {
    const dead = connectRedis('redis://127.0.0.1:1', () => undefined);
    const seen: Error[] = [];
    const offline = new RedisRateLimiter(dead, (e) => seen.push(e), prefix);
    const results = await Promise.all(Array.from({ length: 5 }, () => offline.hit('k3', 3, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(seen.length).toBeGreaterThan(0);
    dead.disconnect();
  });
});
