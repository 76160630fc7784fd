import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';
import {
  denied,
  MemoryRateLimiter,
  once,
  RESERVE_WAIT_MS,
  WaitQueue,
  type RateLimiter,
  type RateLimitResult,
  type Reservation,
} from '../auth/rate-limit.js';

// Fixed window shared by every instance: adds ARGV[2] hits; the first hit of a window sets its
// expiry.
const HIT = `local c = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

// Failure gate (RateLimiter.reserve). KEYS[1]: failures of the window; KEYS[2]: attempts in flight,
// a sorted set of slot ids scored by the time each lapses (ARGV[3] ms after it was taken), so a
// slot whose release never arrived (an instance that died, a lost settle) lapses on its own even
// while other slots keep being taken. ARGV[4]: this slot's id.
// Returns {0, failures, ttl}: blocked; {1, …}: every slot in flight, wait; {2, …}: slot taken.
const RESERVE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local f = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if f >= tonumber(ARGV[1]) then return {0, f, ttl} end
local r = redis.call('ZCARD', KEYS[2])
if f + r >= tonumber(ARGV[1]) then return {1, f, ttl} end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {2, f, ttl}`;

// Gives slot ARGV[3] back; ARGV[1] = '1' counts a failure (the first of a window sets its expiry).
const SETTLE = `redis.call('ZREM', KEYS[2], ARGV[3])
if ARGV[1] == '1' then
  redis.call('INCR', KEYS[1])
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
return 0`;

const DEFAULT_INFLIGHT_TTL_MS = 10_000;
// Slots freed on another instance are noticed by polling; freed here, by a wake-up.
const RESERVE_POLL_MS = 50;

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
  private readonly waiting = new WaitQueue();
  private pending = new Map<string, Pending>();
  // Bounded: buckets are client addresses.
  private readonly recentPeeks = new LRUCache<string, { until: number; result: RateLimitResult }>({ max: 10_000 });
  private flushScheduled = false;

  constructor(
    private readonly redis: Redis,
    private readonly onFallback: (err: Error) => void,
    private readonly prefix: string,
    /** How long an unreleased failure-gate slot stays taken (tests shorten it). */
    private readonly inflightTtlMs = DEFAULT_INFLIGHT_TTL_MS,
  ) {
    // EVALSHA after the first call: the script is not re-sent with every request.
    redis.defineCommand('hostpayRateHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('hostpayGateReserve', { numberOfKeys: 2, lua: RESERVE });
    redis.defineCommand('hostpayGateSettle', { numberOfKeys: 2, lua: SETTLE });
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

  /**
   * The failure gate shared by every instance: one script takes a slot, one gives it back. An
   * attempt that finds every slot in flight polls until one settles (RESERVE_WAIT_MS at most).
   */
  async reserve(bucket: string, limit: number, windowMs: number): Promise<Reservation> {
    const keys = [`${this.prefix}gate:{${bucket}}:f`, `${this.prefix}gate:{${bucket}}:r`] as const;
    const deadline = Date.now() + RESERVE_WAIT_MS;
    const gate = this.redis as unknown as Gate;
    const slot = randomUUID();
    for (;;) {
      let answer: [number, number, number];
      try {
        answer = (await gate.hostpayGateReserve(keys[0], keys[1], limit, windowMs, this.inflightTtlMs, slot)) as [
          number,
          number,
          number,
        ];
      } catch (err) {
        this.onFallback(err as Error);
        return this.local.reserve(bucket, limit, windowMs);
      }
      const [state, failures, ttl] = answer;
      const msLeft = ttl > 0 ? ttl : windowMs;
      if (state === 0) {
        this.waiting.wakeOne(bucket); // the next waiter is refused too: let it know now
        return denied(result(failures, false, limit, msLeft));
      }
      if (state === 2) {
        const settle = once((failed) => {
          gate.hostpayGateSettle(keys[0], keys[1], failed ? '1' : '0', windowMs, slot).then(
            () => this.waiting.wakeOne(bucket),
            (err: unknown) => this.onFallback(err as Error),
          );
        });
        return { allowed: true, result: result(failures + 1, true, limit, msLeft), settle };
      }
      if (Date.now() >= deadline) return denied(result(limit, false, limit, 1000));
      await this.waiting.wait(bucket, RESERVE_POLL_MS);
    }
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = new Map();
    this.flushScheduled = false;
    for (const [bucket, p] of batch) void this.send(bucket, p);
  }

  private async send(bucket: string, p: Pending): Promise<void> {
    const n = p.waiters.length;
    try {
      const [count, ttl] = (await (this.redis as unknown as RateHit).hostpayRateHit(
        this.prefix + bucket,
        p.windowMs,
        n,
      )) as [number, number];
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
      const [count, ttl] = await Promise.all([
        this.redis.get(this.prefix + bucket),
        this.redis.pttl(this.prefix + bucket),
      ]);
      const n = count === null ? 0 : Number(count);
      const r = result(n, n < limit, limit, ttl > 0 ? ttl : windowMs);
      if (n < limit / 2) {
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
}

interface Gate {
  hostpayGateReserve(
    failures: string,
    inflight: string,
    limit: number,
    windowMs: number,
    inflightTtlMs: number,
    slot: string,
  ): Promise<unknown>;
  hostpayGateSettle(
    failures: string,
    inflight: string,
    failed: string,
    windowMs: number,
    slot: string,
  ): Promise<unknown>;
}

function result(count: number, allowed: boolean, limit: number, msLeft: number): RateLimitResult {
  return { allowed, limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}
