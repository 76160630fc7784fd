import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../src/shared/redis.js';
import { RedisRateLimiter } from '../src/shared/redis-rate-limiter.js';
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

  it('shares the count between two limiters (two instances)', async () => {
    const other = new RedisRateLimiter(redis, () => undefined, prefix);
    const a = await Promise.all(Array.from({ length: 7 }, () => limiter.hit('k2', 10, 60_000)));
    const b = await Promise.all(Array.from({ length: 7 }, () => other.hit('k2', 10, 60_000)));
    expect([...a, ...b].filter((r) => r.allowed)).toHaveLength(10);
    expect((await limiter.peek('k2', 10, 60_000)).allowed).toBe(false);
  });

  it('refunds give hits back, never below zero and never reviving an expired window', async () => {
    await Promise.all(Array.from({ length: 5 }, () => limiter.hit('k4', 3, 60_000)));
    await Promise.all(Array.from({ length: 4 }, () => limiter.refund('k4')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Number(await redis.get(`${prefix}k4`))).toBe(1);
    await Promise.all(Array.from({ length: 3 }, () => limiter.refund('k4')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(Number(await redis.get(`${prefix}k4`))).toBe(0);
    await limiter.refund('k5');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await redis.exists(`${prefix}k5`)).toBe(0);
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
