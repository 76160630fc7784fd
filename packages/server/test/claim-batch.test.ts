import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { batchedClaims, MAX_CLAIMS_PER_CALL } from '../src/cluster/claim-batch.js';
import { connectRedis } from '../src/cluster/redis.js';
import { dropRedisKeys, redisAvailable, redisReady, TEST_REDIS_URL } from './helpers.js';

describe.runIf(redisAvailable)('single-use claims batched per turn (real Redis)', () => {
  const prefix = `hp_test_claim_${randomBytes(4).toString('hex')}:`;
  const redis = connectRedis(TEST_REDIS_URL, () => undefined);
  const errors: Error[] = [];
  const claim = batchedClaims(redis, (err) => errors.push(err));
  afterAll(() => dropRedisKeys(redis, prefix));

  /** The script calls Redis received while `work` ran that name our keys (MONITOR sees every command). */
  async function callsDuring(work: () => Promise<unknown>): Promise<string[][]> {
    const monitor = await new Redis(TEST_REDIS_URL).monitor();
    const seen: string[][] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (/^eval/i.test(args[0] ?? '') && args.some((a) => a.startsWith(prefix))) seen.push(args);
    });
    try {
      await work();
      // MONITOR's stream lags the replies by a round trip: a PING through it marks the end.
      const marker = new Redis(TEST_REDIS_URL);
      await marker.ping(`${prefix}end`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      marker.disconnect();
    } finally {
      monitor.disconnect();
    }
    return seen;
  }

  it('answers each caller as if alone: the first of each key true, every repeat false, in one call', async () => {
    await redisReady(redis);
    const keys = Array.from({ length: 40 }, (_, i) => `${prefix}a${i % 30}`);
    let answers: (boolean | undefined)[] = [];
    const calls = await callsDuring(async () => {
      answers = await Promise.all(keys.map((k) => claim(k, 60_000)));
    });
    // 30 distinct keys: the first 30 claims set theirs, the 10 repeats (a0…a9 again) find them.
    expect(answers.slice(0, 30).every((a) => a === true)).toBe(true);
    expect(answers.slice(30).every((a) => a === false)).toBe(true);
    expect(calls).toHaveLength(1);
    // A later turn: all taken now.
    expect(await Promise.all([claim(`${prefix}a0`, 60_000), claim(`${prefix}a29`, 60_000)])).toEqual([false, false]);
    expect(errors).toHaveLength(0);
  });

  it('sets each key for its own time to live, and a lapsed key can be claimed again', async () => {
    await redisReady(redis);
    const [long, short] = await Promise.all([claim(`${prefix}long`, 60_000), claim(`${prefix}short`, 150)]);
    expect([long, short]).toEqual([true, true]);
    const ttlLong = await redis.pttl(`${prefix}long`);
    expect(ttlLong).toBeGreaterThan(55_000);
    expect(ttlLong).toBeLessThanOrEqual(60_000);
    expect(await redis.pttl(`${prefix}short`)).toBeLessThanOrEqual(150);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await claim(`${prefix}short`, 150)).toBe(true);
    expect(await claim(`${prefix}long`, 60_000)).toBe(false);
  });

  it(`splits a burst into calls of at most ${MAX_CLAIMS_PER_CALL} keys, answers unchanged`, async () => {
    await redisReady(redis);
    const n = MAX_CLAIMS_PER_CALL * 2 + 7;
    let answers: (boolean | undefined)[] = [];
    const calls = await callsDuring(async () => {
      answers = await Promise.all(Array.from({ length: n }, (_, i) => claim(`${prefix}burst${i}`, 60_000)));
    });
    expect(answers.filter((a) => a === true)).toHaveLength(n);
    expect(calls).toHaveLength(3);
    expect(await redis.exists(`${prefix}burst0`, `${prefix}burst${n - 1}`)).toBe(2);
  });

  it('when Redis fails, everyone of the call gets undefined (the store decides) and the error is reported', async () => {
    const down = connectRedis('redis://127.0.0.1:1', () => undefined);
    const failed: Error[] = [];
    const claimDown = batchedClaims(down, (err) => failed.push(err));
    try {
      const answers = await Promise.all([claimDown(`${prefix}x`, 1000), claimDown(`${prefix}y`, 1000)]);
      expect(answers).toEqual([undefined, undefined]);
      expect(failed).toHaveLength(1);
      expect(await redis.exists(`${prefix}x`)).toBe(0);
    } finally {
      down.disconnect();
    }
  });
});
