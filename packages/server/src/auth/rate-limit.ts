/**
 * Rate limiting behind one interface, so the in-process counter used by a single instance can be
 * swapped for a shared (Redis) one without touching the authentication hook.
 */
export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1); also the Retry-After value. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request in `bucket` and says whether it is within `limit` per `windowMs`. */
  hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** `hit` answered at once, for limiters that hold their counts in this process. */
  hitNow?(bucket: string, limit: number, windowMs: number): RateLimitResult;
  /**
   * `hitNow` for a request that is within the limit; over it, undefined and nothing counted (the
   * caller then goes the usual way, which counts and refuses it). In-process limiters only.
   */
  hitIfAllowedNow?(bucket: string, limit: number, windowMs: number): RateLimitResult | undefined;
  /**
   * A shared limiter's hit answered at once from hits it reserved ahead of use (each with its own
   * place in the shared count); undefined when it holds none for the bucket (then `hit`).
   */
  hitReserved?(bucket: string, limit: number, windowMs: number): RateLimitResult | undefined;
  /** Reads `bucket` without counting: used to turn away an address before doing any work for it. */
  peek(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /**
   * A slot to evaluate one attempt under a limit of `limit` failures per `windowMs`, taken before
   * the attempt is evaluated. Denied at once when the window already holds `limit` failures; while
   * failures plus attempts in flight reach the limit, waits (up to about a second) for one of those
   * to settle, so that however many attempts arrive together at most `limit` can fail. `settle`
   * gives the slot back, counting a failure when the attempt failed.
   */
  reserve(bucket: string, limit: number, windowMs: number): Promise<Reservation>;
}

export interface Reservation {
  allowed: boolean;
  /** For a denial: the limit and the Retry-After seconds. */
  result: RateLimitResult;
  /** Call exactly once when the attempt is decided (ignored for denials and repeated calls). */
  settle(failed: boolean): void;
}

/** How long an attempt waits for a slot while others are in flight before it is told 429. */
export const RESERVE_WAIT_MS = 1000;

interface Gate {
  failures: number;
  resetAt: number;
  inflight: number;
}

/**
 * Attempts waiting for a failure-gate slot, per bucket. A settled slot wakes one waiter (not all:
 * a burst of a thousand would otherwise wake a thousand per settle); a waiter also wakes by itself
 * after `pollMs`, which is how slots freed by another instance are noticed.
 */
export class WaitQueue {
  private readonly queues = new Map<string, (() => void)[]>();

  wait(bucket: string, pollMs: number): Promise<void> {
    return new Promise((resolve) => {
      let queue = this.queues.get(bucket);
      if (queue === undefined) {
        queue = [];
        this.queues.set(bucket, queue);
      }
      const q = queue;
      const entry = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = q.indexOf(entry);
        if (i !== -1) q.splice(i, 1);
        if (q.length === 0 && this.queues.get(bucket) === q) this.queues.delete(bucket);
        resolve();
      }, pollMs);
      q.push(entry);
    });
  }

  wakeOne(bucket: string): void {
    const queue = this.queues.get(bucket);
    const next = queue?.shift();
    if (queue !== undefined && queue.length === 0) this.queues.delete(bucket);
    next?.();
  }
}

interface Window {
  count: number;
  resetAt: number;
}

export interface MemoryRateLimiterOptions {
  /** Clock in ms; tests move it. Default Date.now. */
  now?: () => number;
  /** Hard cap on tracked buckets; the oldest are dropped beyond it. Default 100 000. */
  maxBuckets?: number;
}

/**
 * Fixed-window counters in a Map. Expired windows are swept at most once per second and the map
 * is capped, so memory stays bounded even under a flood of distinct client addresses.
 */
/** The gate new addresses share while every tracked address still has failures in its window. */
const OVERFLOW_GATE = 'gate:overflow';

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly gates = new Map<string, Gate>();
  private readonly waiting = new WaitQueue();
  private readonly now: () => number;
  private readonly maxBuckets: number;
  private nextSweep = 0;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxBuckets = options.maxBuckets ?? 100_000;
  }

  hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return Promise.resolve(this.hitNow(bucket, limit, windowMs));
  }

  hitNow(bucket: string, limit: number, windowMs: number): RateLimitResult {
    const now = this.now();
    this.sweep(now);
    let w = this.windows.get(bucket);
    if (w === undefined) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(bucket, w);
    } else if (w.resetAt <= now) {
      w.count = 0;
      w.resetAt = now + windowMs;
    }
    w.count++;
    return result(w.count, w.count <= limit, limit, w.resetAt - now);
  }

  hitIfAllowedNow(bucket: string, limit: number, windowMs: number): RateLimitResult | undefined {
    const w = this.windows.get(bucket);
    // Over the limit in a live window: not counted here (hitNow will count and refuse it).
    if (limit < 1 || (w !== undefined && w.count >= limit && w.resetAt > this.now())) return undefined;
    return this.hitNow(bucket, limit, windowMs);
  }

  peek(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const w = this.windows.get(bucket);
    if (w === undefined || w.resetAt <= now) return Promise.resolve(result(0, true, limit, windowMs));
    return Promise.resolve(result(w.count, w.count < limit, limit, w.resetAt - now));
  }

  async reserve(wanted: string, limit: number, windowMs: number): Promise<Reservation> {
    const deadline = Date.now() + RESERVE_WAIT_MS;
    let bucket = wanted;
    for (;;) {
      const now = this.now();
      let g = this.gates.get(bucket);
      if (g === undefined) {
        if (this.gates.size >= this.maxBuckets) this.sweepGates(now);
        // Still full of addresses with failures in their window (many addresses guessing at
        // once): new addresses share one gate rather than evicting a live count, which would let
        // an attacker reset its own count by churning addresses.
        if (this.gates.size >= this.maxBuckets && bucket !== OVERFLOW_GATE) {
          bucket = OVERFLOW_GATE;
          continue;
        }
        g = { failures: 0, resetAt: now + windowMs, inflight: 0 };
        this.gates.set(bucket, g);
      } else if (g.resetAt <= now) {
        g.failures = 0;
        g.resetAt = now + windowMs;
      }
      if (g.failures >= limit) {
        this.waiting.wakeOne(bucket); // the next waiter is refused too: let it know now
        return denied(result(g.failures, false, limit, g.resetAt - now));
      }
      if (g.failures + g.inflight < limit) {
        g.inflight++;
        return {
          allowed: true,
          result: result(g.failures + g.inflight, true, limit, g.resetAt - now),
          settle: once((failed) => this.settle(bucket, g, failed)),
        };
      }
      if (Date.now() >= deadline) return denied(result(limit, false, limit, 1000));
      await this.waiting.wait(bucket, 100);
    }
  }

  private settle(bucket: string, g: Gate, failed: boolean): void {
    g.inflight--;
    if (failed) g.failures++;
    if (g.inflight === 0 && g.failures === 0 && this.gates.get(bucket) === g) this.gates.delete(bucket);
    this.waiting.wakeOne(bucket);
  }

  /** Drops gates that hold nothing: no attempt in flight and no failure in a live window. */
  private sweepGates(now: number): void {
    for (const [bucket, g] of this.gates)
      if (g.inflight === 0 && (g.resetAt <= now || g.failures === 0)) this.gates.delete(bucket);
  }

  /** Number of tracked buckets (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    if (now < this.nextSweep && this.windows.size < this.maxBuckets) return;
    this.nextSweep = now + 1000;
    for (const [bucket, w] of this.windows) if (w.resetAt <= now) this.windows.delete(bucket);
    // Map iteration is insertion order, so this drops the longest-tracked buckets first.
    for (const bucket of this.windows.keys()) {
      if (this.windows.size < this.maxBuckets) break;
      this.windows.delete(bucket);
    }
  }
}

function result(count: number, allowed: boolean, limit: number, msLeft: number): RateLimitResult {
  return { allowed, limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}

export function denied(r: RateLimitResult): Reservation {
  return { allowed: false, result: r, settle: () => undefined };
}

export function once(fn: (failed: boolean) => void): (failed: boolean) => void {
  let done = false;
  return (failed) => {
    if (done) return;
    done = true;
    fn(failed);
  };
}
