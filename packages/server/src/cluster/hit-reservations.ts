import { lazyLru } from '../lazy.js';

// Reservations (hitReserved): only for a bucket this instance saw at least RESERVE_MIN_RATE hits
// a second of, of about a tenth of a second of them, at most MAX_RESERVE. The rate is read over
// the last full DEMAND_WINDOW_MS, not whole seconds, so that a key turning busy (after a pause, or
// a burst) gets reservations within a tenth of a second: until then its every hit is a round trip.
const RESERVE_MIN_RATE = 100;
const MAX_RESERVE = 10_000;
export const DEMAND_WINDOW_MS = 100;

/**
 * Hits counted in Redis ahead of use, handed out here in order: `ranges` of the shared count's
 * numbers (next…end), `left` of them in all, for one limit and window. `refilling`: a round trip
 * taking more is under way (one at a time per bucket).
 */
export interface Reserved {
  ranges: { next: number; end: number }[];
  left: number;
  size: number;
  limit: number;
  windowMs: number;
  windowEndsAt: number;
  refilling: boolean;
}

/** Hits of a bucket seen here: in the current demand window (from `since`) and in the one before. */
interface Demand {
  since: number;
  hits: number;
  lastWindow: number;
}

/**
 * The hits of busy buckets this instance reserved in Redis ahead of use (RedisRateLimiter's
 * `hitReserved`), and the demand per bucket that sizes the next reservation. No I/O here: the
 * limiter asks Redis and hands the answers in.
 */
export class HitReservations {
  private readonly reserved = lazyLru<string, Reserved>({ max: 10_000 });
  private readonly demand = lazyLru<string, Demand>({ max: 10_000 });

  /** `windowMs`: how long demand is counted before it sizes a reservation (tests lengthen it). */
  constructor(private readonly windowMs = DEMAND_WINDOW_MS) {}

  /**
   * The next reserved number of `bucket` for this hit (its demand counted either way); undefined
   * (or a `count` of undefined, all used) when none is held for this limit and window. `refill`:
   * half of the reservation is used and no refill is under way, so the caller asks Redis for the
   * next one now (a busy bucket never runs dry).
   */
  take(
    bucket: string,
    limit: number,
    windowMs: number,
    now: number,
  ): { count: number | undefined; windowEndsAt: number; refill: Reserved | undefined } | undefined {
    this.countDemand(bucket, now);
    const r = this.reserved().get(bucket);
    if (r === undefined || r.limit !== limit || r.windowMs !== windowMs || now >= r.windowEndsAt) return undefined;
    const refill = r.left <= r.size / 2 && !r.refilling ? r : undefined;
    const range = r.ranges[0];
    if (range === undefined) return { count: undefined, windowEndsAt: r.windowEndsAt, refill };
    const count = range.next++;
    if (range.next > range.end) r.ranges.shift();
    r.left--;
    return { count, windowEndsAt: r.windowEndsAt, refill };
  }

  /** Keeps the `reserved` numbers up to `count` for this instance to hand out. */
  add(bucket: string, limit: number, windowMs: number, count: number, ttl: number, reserved: number) {
    if (reserved <= 0) return;
    const range = { next: count - reserved + 1, end: count };
    const r = this.reserved().get(bucket);
    const last = r?.ranges.at(-1);
    // Numbers below what this instance already holds: Redis began a new window (the old one's
    // numbers lapsed with it), or the limit changed; either way the old ranges are dropped.
    if (
      r === undefined ||
      r.limit !== limit ||
      r.windowMs !== windowMs ||
      (last !== undefined && range.next <= last.end)
    ) {
      const refilling = r?.refilling === true && r.limit === limit && r.windowMs === windowMs;
      this.reserved().set(bucket, {
        ranges: [range],
        left: reserved,
        size: reserved,
        limit,
        windowMs,
        windowEndsAt: Date.now() + ttl,
        refilling,
      });
      return;
    }
    r.ranges.push(range);
    r.left += reserved;
    r.size = reserved;
    r.windowEndsAt = Date.now() + ttl;
  }

  private countDemand(bucket: string, now: number): void {
    let d = this.demand().get(bucket);
    if (d === undefined) {
      d = { since: now, hits: 0, lastWindow: 0 };
      this.demand().set(bucket, d);
    } else if (now - d.since >= this.windowMs) {
      d.lastWindow = now - d.since < 2 * this.windowMs ? d.hits : 0;
      d.since = now;
      d.hits = 0;
    }
    d.hits++;
  }

  /** How many hits to reserve for `bucket` with its next round trip. */
  wanted(bucket: string): number {
    if (this.reserved().get(bucket)?.refilling === true) return 0;
    const rate = ((this.demand().get(bucket)?.lastWindow ?? 0) * 1000) / this.windowMs;
    return rate < RESERVE_MIN_RATE ? 0 : Math.min(MAX_RESERVE, Math.floor(rate / 10));
  }
}
