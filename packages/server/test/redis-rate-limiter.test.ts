import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../src/cluster/redis.js';
import type { RateLimitResult } from '../src/auth/rate-limit.js';
import { RedisRateLimiter } from '../src/cluster/redis-rate-limiter.js';
import { dropRedisKeys, redisAvailable, redisReady, TEST_REDIS_URL } from './helpers.js';

describe.runIf(redisAvailable)('Redis rate limiter (real Redis)', () => {
  const prefix = `hp_test_${randomBytes(4).toString('hex')}:`;
  const redis = connectRedis(TEST_REDIS_URL, () => undefined);
  const fallbacks: Error[] = [];
  // Demand counted over whole seconds here (production: a tenth, hit-reservations.test.ts): a
  // round trip on a loaded machine must not cross the window these tests size reservations by.
  const limiter = new RedisRateLimiter(redis, (e) => fallbacks.push(e), prefix, undefined, 1000);
  afterAll(() => dropRedisKeys(redis, prefix));

  it('counts hits that arrive together exactly: 50 at once with a limit of 20 allow 20', async () => {
    await redisReady(redis);
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.hit('k1', 20, 60_000)));
    expect(results.filter((r) => r.allowed)).toHaveLength(20);
    expect(new Set(results.map((r) => r.remaining)).size).toBeGreaterThan(1);
    expect(results.every((r) => r.resetSeconds >= 1 && r.resetSeconds <= 60)).toBe(true);
    expect(Number(await redis.get(`${prefix}k1`))).toBe(50);
    expect(fallbacks).toHaveLength(0);
  });

  it('failure gate: a slot whose release never arrives lapses on its own, even while others keep being taken', async () => {
    await redisReady(redis);
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
  describe('hits reserved ahead for a busy bucket (hitReserved)', () => {
    const take = (l: RedisRateLimiter, bucket: string, limit: number) =>
      l.hitReserved(bucket, limit, 60_000) ?? l.hit(bucket, limit, 60_000);
    /** 150 hits seen by `l` in one second, then the next second begins: the bucket counts as busy. */
    const makeBusy = async (l: RedisRateLimiter, bucket: string, limit: number) => {
      await Promise.all(Array.from({ length: 150 }, () => take(l, bucket, limit)));
      await new Promise((r) => setTimeout(r, 1050));
    };

    it('a busy bucket gets a tenth of a second of its hits reserved: answered at once, each with its own number', async () => {
      await redisReady(redis);
      await makeBusy(limiter, 'busy1', 10_000);
      expect(Number(await redis.get(`${prefix}busy1`))).toBe(150);
      expect(limiter.hitReserved('busy1', 10_000, 60_000)).toBeUndefined();
      const first = await limiter.hit('busy1', 10_000, 60_000);
      expect(first.remaining).toBe(10_000 - 151);
      // 151 hits seen in the second before → 15 reserved with that round trip, counted in Redis.
      expect(Number(await redis.get(`${prefix}busy1`))).toBe(151 + 15);
      const now = Array.from({ length: 16 }, () => limiter.hitReserved('busy1', 10_000, 60_000));
      expect(now.slice(0, 15).map((r) => r?.remaining)).toEqual(Array.from({ length: 15 }, (_, i) => 10_000 - 152 - i));
      expect(now.slice(0, 15).every((r) => r?.allowed === true && r.resetSeconds <= 60)).toBe(true);
      // Used up: nothing more now, but half-way through (the 9th) the next 15 were asked for.
      expect(now[15]).toBeUndefined();
      await new Promise((r) => setTimeout(r, 100));
      expect(Number(await redis.get(`${prefix}busy1`))).toBe(166 + 15);
      expect(limiter.hitReserved('busy1', 10_000, 60_000)?.remaining).toBe(10_000 - 167);
      // A different limit (the key's changed) or window does not use the reservation.
      expect(limiter.hitReserved('busy1', 5_000, 60_000)).toBeUndefined();
      expect(fallbacks).toHaveLength(0);
    });

    it('two busy limiters up to the limit: never more than the limit allowed, no number given twice, little left unused', async () => {
      const other = new RedisRateLimiter(redis, () => undefined, prefix, undefined, 1000);
      const limit = 1_000;
      await makeBusy(limiter, 'busy2', limit);
      await makeBusy(other, 'busy2', limit);
      // 300 counted; then 1,000 more in waves of 10 (5 per limiter), both busy: reservations of 15.
      const results: RateLimitResult[] = [];
      let atOnce = 0;
      const counted = (l: RedisRateLimiter) => {
        const now = l.hitReserved('busy2', limit, 60_000);
        if (now !== undefined) atOnce++;
        return now ?? l.hit('busy2', limit, 60_000);
      };
      for (let wave = 0; wave < 100; wave++)
        results.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => counted(i % 2 ? other : limiter)))));
      const allowed = results.filter((r) => r.allowed);
      expect(allowed.length).toBeLessThanOrEqual(limit - 300);
      // What can be refused early is what is reserved and unused: at most two reservations per limiter.
      expect(allowed.length).toBeGreaterThanOrEqual(limit - 300 - 2 * 2 * 15);
      expect(new Set(allowed.map((r) => r.remaining)).size).toBe(allowed.length);
      expect(results.filter((r) => !r.allowed).every((r) => r.remaining === 0)).toBe(true);
      // Reservations were used: a good part of the allowed hits were answered without a round trip of their own.
      expect(atOnce).toBeGreaterThan(allowed.length / 3);
    });

    it('a quiet bucket reserves nothing: every hit is a round trip and the count is exact', async () => {
      const results = [];
      for (let i = 0; i < 30; i++) results.push(await take(limiter, 'quiet1', 1_000));
      expect(Number(await redis.get(`${prefix}quiet1`))).toBe(30);
      expect(results.map((r) => r.remaining)).toEqual(Array.from({ length: 30 }, (_, i) => 1_000 - 1 - i));
      expect(limiter.hitReserved('quiet1', 1_000, 60_000)).toBeUndefined();
    });
  });
});
