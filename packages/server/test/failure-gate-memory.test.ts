import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../src/auth/rate-limit.js';

const fail = async (limiter: MemoryRateLimiter, bucket: string, limit: number) => {
  const slot = await limiter.reserve(bucket, limit, 60_000);
  if (slot.allowed) slot.settle(true);
  return slot.allowed;
};

describe('in-process failed-attempt gates when the table is full', () => {
  it('never evicts an address that still has failures; new addresses share one overflow gate', async () => {
    const limiter = new MemoryRateLimiter({ maxBuckets: 4 });
    const limit = 3;
    // Four addresses each reach the limit: the table is full of live counts.
    for (const a of ['a', 'b', 'c', 'd'])
      for (let i = 0; i < limit; i++) expect(await fail(limiter, a, limit)).toBe(true);
    // Churning through new addresses does not reset 'a'...
    for (const fresh of ['e', 'f', 'g', 'h', 'i']) await fail(limiter, fresh, limit);
    expect(await fail(limiter, 'a', limit)).toBe(false);
    // ...and the new addresses together got at most `limit` evaluations (they share the overflow gate).
    let allowed = 0;
    for (const fresh of ['j', 'k', 'l', 'm', 'n', 'o']) if (await fail(limiter, fresh, limit)) allowed++;
    expect(allowed).toBe(0);
  });
});
