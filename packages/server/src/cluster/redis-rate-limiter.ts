import { randomUUID } from 'node:crypto';
import { lazyLru } from '../lazy.js';
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
import { HitReservations, type Reserved } from './hit-reservations.js';

// Fixed window shared by every instance: adds ARGV[2] hits plus a reservation of up to ARGV[3]
// hits for this instance to count itself (RedisRateLimiter.hitReserved), never more than an
// eighth of what the window has left for the limit ARGV[4] after these hits; the first hit of a
// window sets its expiry. Returns {count after all, ttl, hits reserved}.
const HIT = `local n = tonumber(ARGV[2])
local room = math.floor((tonumber(ARGV[4]) - tonumber(redis.call('GET', KEYS[1]) or '0') - n) / 8)
local b = math.max(0, math.min(tonumber(ARGV[3]), room))
local c = redis.call('INCRBY', KEYS[1], n + b)
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl, b}`;

// Failure gate (RateLimiter.reserve). KEYS[1]: failures of the window; KEYS[2]: attempts in flight,
// a sorted set of slot ids scored by the time each lapses (ARGV[3] ms after it was taken), so a
// slot whose release never arrived (an instance that died, a lost settle) lapses on its own even
// while other slots keep being taken. ARGV[4…]: the ids of the slots wanted (the attempts of one
// bucket that arrived in one turn of the event loop), taken in that order while any is free.
// Returns {0, failures, ttl, 0}: blocked; {1, …, 0}: every slot in flight, wait;
// {2, failures, ttl, n}: the first n slots taken (the others wait).
const RESERVE = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local f = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if f >= tonumber(ARGV[1]) then return {0, f, ttl, 0} end
local free = tonumber(ARGV[1]) - f - redis.call('ZCARD', KEYS[2])
if free <= 0 then return {1, f, ttl, 0} end
local n = math.min(free, #ARGV - 3)
local expires = now + tonumber(ARGV[3])
for i = 1, n do redis.call('ZADD', KEYS[2], expires, ARGV[3 + i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {2, f, ttl, n}`;

// Gives slots ARGV[3…] back and counts ARGV[1] failures (the first of a window sets its expiry).
const SETTLE = `redis.call('ZREM', KEYS[2], unpack(ARGV, 3))
if tonumber(ARGV[1]) > 0 then
  redis.call('INCRBY', KEYS[1], ARGV[1])
  if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
return 0`;

const MAX_SETTLES_PER_CALL = 1000;
const DEFAULT_INFLIGHT_TTL_MS = 10_000;
// Slots freed on another instance are noticed by polling; freed here, by a wake-up.
const RESERVE_POLL_MS = 50;

const PEEK_REUSE_MS = 250;

interface Pending {
  windowMs: number;
  waiters: { limit: number; resolve: (r: RateLimitResult) => void }[];
}

/** [state, failures, ttl] of one attempt's reservation, as the RESERVE script's states. */
type GateAnswer = [0 | 1 | 2, number, number];

/** The reservations of one bucket (and limit) wanted in one turn of the event loop. */
interface PendingReserves {
  keys: readonly [string, string];
  limit: number;
  windowMs: number;
  waiters: { slot: string; resolve: (a: GateAnswer) => void; reject: (err: unknown) => void }[];
}

/** The slots of one bucket given back in one turn of the event loop. */
interface PendingSettles {
  keys: readonly [string, string];
  bucket: string;
  windowMs: number;
  slots: string[];
  failures: number;
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
  private reserves = new Map<string, PendingReserves>();
  private settles = new Map<string, PendingSettles>();
  // Bounded: buckets are API keys and users.
  private readonly reservations: HitReservations;
  // Bounded: buckets are client addresses.
  private readonly recentPeeks = lazyLru<string, { until: number; result: RateLimitResult }>({ max: 10_000 });
  private flushScheduled = false;

  constructor(
    private readonly redis: Redis,
    private readonly onFallback: (err: Error) => void,
    private readonly prefix: string,
    /** How long an unreleased failure-gate slot stays taken (tests shorten it). */
    private readonly inflightTtlMs = DEFAULT_INFLIGHT_TTL_MS,
    /** How long a bucket's demand is counted before it sizes a reservation (tests lengthen it). */
    demandWindowMs?: number,
  ) {
    this.reservations = new HitReservations(demandWindowMs);
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
    this.recentPeeks.made()?.delete(bucket);
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
   * A hit counted against the hits this instance reserved in Redis ahead of use, answered at
   * once; undefined when none is left (the caller then calls `hit`, whose round trip takes the
   * next reservation), so a busy key's requests do not each wait on a Redis round trip. Each
   * reserved hit has its own number in the shared count, so
   * no more than the limit is ever allowed across instances; what a reservation can cost is the
   * other side: hits reserved here and not used before the window ends were counted all the same,
   * so another instance may refuse that many early. Hence reservations are small and only for
   * busy buckets: about a tenth of a second of this instance's traffic on the bucket, only when
   * it saw 100 or more hits a second (read over the last tenth of a second), and never more than
   * an eighth of what is left (near the limit, every hit is a round trip and exact).
   */
  hitReserved(bucket: string, limit: number, windowMs: number): RateLimitResult | undefined {
    const now = Date.now();
    const taken = this.reservations.take(bucket, limit, windowMs, now);
    if (taken === undefined) return undefined;
    // Half used: the next reservation is asked for now, so that a busy bucket never runs dry.
    if (taken.refill !== undefined) this.refill(bucket, taken.refill);
    if (taken.count === undefined) return undefined;
    return result(taken.count, taken.count <= limit, limit, taken.windowEndsAt - now);
  }

  /** Takes the next reservation of a bucket with a round trip of its own (no hit counted with it). */
  private refill(bucket: string, r: Reserved): void {
    const wanted = this.reservations.wanted(bucket);
    if (wanted === 0) return;
    r.refilling = true;
    (this.redis as unknown as RateHit).hostpayRateHit(this.prefix + bucket, r.windowMs, 0, wanted, r.limit).then(
      (answer) => {
        r.refilling = false;
        const [count, ttl, reserved] = answer as [number, number, number];
        this.reservations.add(bucket, r.limit, r.windowMs, count, ttl, reserved);
      },
      (err: unknown) => {
        r.refilling = false;
        this.onFallback(err as Error);
      },
    );
  }

  /**
   * The failure gate shared by every instance: one script takes slots, one gives them back. The
   * attempts of a bucket that arrive in one turn of the event loop take their slots with one
   * script call (in arrival order, while any is free), and the slots given back in one turn go
   * back with one: the same limit as one call per attempt (failures plus attempts in flight never
   * exceed it), at two round trips per turn instead of two per request. An attempt that finds
   * every slot in flight polls until one settles (RESERVE_WAIT_MS at most).
   */
  async reserve(bucket: string, limit: number, windowMs: number): Promise<Reservation> {
    const keys = [`${this.prefix}gate:{${bucket}}:f`, `${this.prefix}gate:{${bucket}}:r`] as const;
    const deadline = Date.now() + RESERVE_WAIT_MS;
    const slot = randomUUID();
    for (;;) {
      let answer: GateAnswer;
      try {
        answer = await this.takeSlot(keys, limit, windowMs, slot);
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
        const settle = once((failed) => this.giveBack(keys, bucket, windowMs, slot, failed));
        return { allowed: true, result: result(failures + 1, true, limit, msLeft), settle };
      }
      if (Date.now() >= deadline) return denied(result(limit, false, limit, 1000));
      await this.waiting.wait(bucket, RESERVE_POLL_MS);
    }
  }

  private takeSlot(keys: readonly [string, string], limit: number, windowMs: number, slot: string) {
    return new Promise<GateAnswer>((resolve, reject) => {
      const id = `${keys[1]}\n${limit}\n${windowMs}`;
      let p = this.reserves.get(id);
      if (p === undefined) {
        p = { keys, limit, windowMs, waiters: [] };
        this.reserves.set(id, p);
      }
      p.waiters.push({ slot, resolve, reject });
      this.scheduleFlush();
    });
  }

  private giveBack(keys: readonly [string, string], bucket: string, windowMs: number, slot: string, failed: boolean) {
    let p = this.settles.get(keys[1]);
    if (p === undefined) {
      p = { keys, bucket, windowMs, slots: [], failures: 0 };
      this.settles.set(keys[1], p);
    }
    p.slots.push(slot);
    if (failed) p.failures++;
    // Lua's unpack takes a few thousand values at most: a bigger turn sends more than one call.
    if (p.slots.length >= MAX_SETTLES_PER_CALL) {
      this.settles.delete(keys[1]);
      this.sendSettles(p);
    }
    this.scheduleFlush();
  }

  private async sendReserves(p: PendingReserves): Promise<void> {
    const gate = this.redis as unknown as Gate;
    try {
      const [state, failures, ttl, taken] = (await gate.hostpayGateReserve(
        p.keys[0],
        p.keys[1],
        p.limit,
        p.windowMs,
        this.inflightTtlMs,
        ...p.waiters.map((w) => w.slot),
      )) as [0 | 1 | 2, number, number, number];
      for (const [i, w] of p.waiters.entries()) w.resolve([i < taken ? 2 : state === 0 ? 0 : 1, failures, ttl]);
    } catch (err) {
      for (const w of p.waiters) w.reject(err);
    }
  }

  private sendSettles(p: PendingSettles): void {
    const gate = this.redis as unknown as Gate;
    gate.hostpayGateSettle(p.keys[0], p.keys[1], p.failures, p.windowMs, ...p.slots).then(
      () => {
        for (let i = 0; i < p.slots.length; i++) this.waiting.wakeOne(p.bucket);
      },
      (err: unknown) => this.onFallback(err as Error),
    );
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    const batch = this.pending;
    const reserves = this.reserves;
    const settles = this.settles;
    this.pending = new Map();
    this.reserves = new Map();
    this.settles = new Map();
    this.flushScheduled = false;
    // Slots given back first: the reservations sent after them in the same pipeline can take them.
    for (const p of settles.values()) this.sendSettles(p);
    for (const p of reserves.values()) void this.sendReserves(p);
    for (const [bucket, p] of batch) void this.send(bucket, p);
  }

  private async send(bucket: string, p: Pending): Promise<void> {
    const n = p.waiters.length;
    let limit = p.waiters[0]!.limit;
    for (const w of p.waiters) limit = Math.min(limit, w.limit);
    try {
      const [count, ttl, reserved] = (await (this.redis as unknown as RateHit).hostpayRateHit(
        this.prefix + bucket,
        p.windowMs,
        n,
        this.reservations.wanted(bucket),
        limit,
      )) as [number, number, number];
      const first = count - reserved - n + 1;
      p.waiters.forEach((w, i) => {
        const c = first + i;
        w.resolve(result(c, c <= w.limit, w.limit, ttl));
      });
      this.reservations.add(bucket, limit, p.windowMs, count, ttl, reserved);
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
    const recent = this.recentPeeks().get(bucket);
    if (recent !== undefined && recent.until > now) return recent.result;
    try {
      const [count, ttl] = await Promise.all([
        this.redis.get(this.prefix + bucket),
        this.redis.pttl(this.prefix + bucket),
      ]);
      const n = count === null ? 0 : Number(count);
      const r = result(n, n < limit, limit, ttl > 0 ? ttl : windowMs);
      if (n < limit / 2) {
        this.recentPeeks().set(bucket, { until: now + PEEK_REUSE_MS, result: r });
      }
      return r;
    } catch (err) {
      this.onFallback(err as Error);
      return this.local.peek(bucket, limit, windowMs);
    }
  }
}

interface RateHit {
  hostpayRateHit(key: string, windowMs: number, hits: number, reserve: number, limit: number): Promise<unknown>;
}

interface Gate {
  hostpayGateReserve(
    failures: string,
    inflight: string,
    limit: number,
    windowMs: number,
    inflightTtlMs: number,
    ...slots: string[]
  ): Promise<unknown>;
  hostpayGateSettle(
    failures: string,
    inflight: string,
    failed: number,
    windowMs: number,
    ...slots: string[]
  ): Promise<unknown>;
}

function result(count: number, allowed: boolean, limit: number, msLeft: number): RateLimitResult {
  return { allowed, limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}
