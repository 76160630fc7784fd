import type { Redis } from 'ioredis';
import { MemoryRateLimiter, type RateLimiter, type RateLimitResult } from '../auth/rate-limit.js';

// Fixed window shared by every instance: the first hit of a window sets its expiry.
const HIT = `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

/**
 * Rate limits shared across instances through Redis. When Redis does not answer, the same
 * limits are applied in-process (per instance) rather than failing requests or letting them
 * through unlimited; `onFallback` is told so the operator sees it (log once, /readyz, metrics).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly local = new MemoryRateLimiter();

  constructor(
    private readonly redis: Redis,
    private readonly onFallback: (err: Error) => void,
    private readonly prefix: string,
  ) {}

  async hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    try {
      const [count, ttl] = (await this.redis.eval(HIT, 1, this.prefix + bucket, windowMs)) as [number, number];
      return result(count, count <= limit, limit, ttl);
    } catch (err) {
      this.onFallback(err as Error);
      return this.local.hit(bucket, limit, windowMs);
    }
  }

  async peek(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    try {
      const [count, ttl] = await Promise.all([this.redis.get(this.prefix + bucket), this.redis.pttl(this.prefix + bucket)]);
      const n = count === null ? 0 : Number(count);
      return result(n, n < limit, limit, ttl > 0 ? ttl : windowMs);
    } catch (err) {
      this.onFallback(err as Error);
      return this.local.peek(bucket, limit, windowMs);
    }
  }
}

function result(count: number, allowed: boolean, limit: number, msLeft: number): RateLimitResult {
  return { allowed, limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}
