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
  /** Reads `bucket` without counting: used to turn away an address before doing any work for it. */
  peek(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /**
   * Takes back one hit of the current window (never below zero, never starting a window). With
   * `hit` it makes a reservation: count first, give it back when the attempt turned out not to
   * count, so concurrent attempts cannot all pass a check made before any of them was counted.
   */
  refund(bucket: string): Promise<void>;
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
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly now: () => number;
  private readonly maxBuckets: number;
  private nextSweep = 0;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.now = options.now ?? Date.now;
    this.maxBuckets = options.maxBuckets ?? 100_000;
  }

  hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult> {
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
    return Promise.resolve(result(w.count, w.count <= limit, limit, w.resetAt - now));
  }

  peek(bucket: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const w = this.windows.get(bucket);
    if (w === undefined || w.resetAt <= now) return Promise.resolve(result(0, true, limit, windowMs));
    return Promise.resolve(result(w.count, w.count < limit, limit, w.resetAt - now));
  }

  refund(bucket: string): Promise<void> {
    const w = this.windows.get(bucket);
    if (w !== undefined && w.resetAt > this.now() && w.count > 0) w.count--;
    return Promise.resolve();
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
