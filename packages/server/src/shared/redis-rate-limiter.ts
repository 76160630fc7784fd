import type { Redis } from 'ioredis';
import { MemoryRateLimiter, type RateLimiter, type RateLimitResult } from '../auth/rate-limit.js';

// Fixed window shared by every instance: adds ARGV[2] hits; the first hit of a window sets its
// expiry.
const HIT = `local c = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

// Gives back up to ARGV[1] hits of a live window; an expired window is not revived.
const REFUND = `local c = tonumber(redis.call('GET', KEYS[1]) or '0')
local n = math.min(c, tonumber(ARGV[1]))
if n > 0 then return redis.call('DECRBY', KEYS[1], n) end
return c`;

const PEEK_REUSE_MS = 250;

interface Pending {
  windowMs: number;
  waiters: { limit: number; resolve: (r: RateLimitResult) => void }[];
}

/**
 * Rate limits shared across instances through Redis. When Redis does not answer, the same
 * limits are applied in-process (per instance) rather than failing requests or letting them
 * through unlimited; `onFallback` is told so the operator sees it (log once, /readyz, metrics).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly local = new MemoryRateLimiter();
  private pending = new Map<string, Pending>();
  private refunds = new Map<string, number>();
  private readonly recentPeeks = new Map<string, { until: number; result: RateLimitResult }>();
  private flushScheduled = false;

  constructor(
    private readonly redis: Redis,
    private readonly onFallback: (err: Error) => void,
    private readonly prefix: string,
  ) {
    // EVALSHA after the first call: the script is not re-sent with every request.
    redis.defineCommand('hostpayRateHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('hostpayRateRefund', { numberOfKeys: 1, lua: REFUND });
  }

  /**
   * Hits of the same bucket that arrive in one turn of the event loop go to Redis as one INCRBY:
   * each still gets its own count (c-n+1 … c), exactly as if sent one by one, at a fraction of
   * the round trips when many requests of one key arrive together.
   */
  hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    this.recentPeeks.delete(bucket);
    return new Promise((resolve) => {
      let p = this.pending.get(bucket);
      if (p === undefined) {
        p = { windowMs, waiters: [] };
        this.pending.set(bucket, p);
      }
      p.waiters.push({ limit, resolve });
      this.scheduleFlush();
    });
  }

  /** Batched like hits: the refunds of one turn of the event loop are one DECRBY per bucket. */
  refund(bucket: string): Promise<void> {
    this.recentPeeks.delete(bucket);
    this.refunds.set(bucket, (this.refunds.get(bucket) ?? 0) + 1);
    this.scheduleFlush();
    return Promise.resolve();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    const batch = this.pending;
    const refunds = this.refunds;
    this.pending = new Map();
    this.refunds = new Map();
    this.flushScheduled = false;
    for (const [bucket, n] of refunds) void this.sendRefund(bucket, n);
    for (const [bucket, p] of batch) void this.send(bucket, p);
  }

  private async sendRefund(bucket: string, n: number): Promise<void> {
    try {
      await (this.redis as unknown as RateHit).hostpayRateRefund(this.prefix + bucket, n);
    } catch (err) {
      this.onFallback(err as Error);
      for (let i = 0; i < n; i++) await this.local.refund(bucket);
    }
  }

  private async send(bucket: string, p: Pending): Promise<void> {
    const n = p.waiters.length;
    try {
      const [count, ttl] = (await (this.redis as unknown as RateHit).hostpayRateHit(this.prefix + bucket, p.windowMs, n)) as [number, number];
      p.waiters.forEach((w, i) => {
        const c = count - n + 1 + i;
        w.resolve(result(c, c <= w.limit, w.limit, ttl));
      });
    } catch (err) {
      this.onFallback(err as Error);
      for (const w of p.waiters) w.resolve(await this.local.hit(bucket, w.limit, p.windowMs));
    }
  }

  /**
   * Peeks guard the failed-authentication limit on every request. A bucket that was well under its
   * limit is not asked again for PEEK_REUSE_MS (it costs two Redis commands per request
   * otherwise); a hit on it here, or a count near the limit, asks again at once. So another
   * instance's failures can go unseen for at most that long.
   */
  async peek(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = Date.now();
    const recent = this.recentPeeks.get(bucket);
    if (recent !== undefined && recent.until > now) return recent.result;
    try {
      const [count, ttl] = await Promise.all([this.redis.get(this.prefix + bucket), this.redis.pttl(this.prefix + bucket)]);
      const n = count === null ? 0 : Number(count);
      const r = result(n, n < limit, limit, ttl > 0 ? ttl : windowMs);
      if (n < limit / 2) {
        if (this.recentPeeks.size >= 10_000) this.recentPeeks.clear();
        this.recentPeeks.set(bucket, { until: now + PEEK_REUSE_MS, result: r });
      }
      return r;
    } catch (err) {
      this.onFallback(err as Error);
      return this.local.peek(bucket, limit, windowMs);
    }
  }
}

interface RateHit {
  hostpayRateHit(key: string, windowMs: number, hits: number): Promise<unknown>;
  hostpayRateRefund(key: string, n: number): Promise<unknown>;
}

function result(count: number, allowed: boolean, limit: number, msLeft: number): RateLimitResult {
  return { allowed, limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}
