import { describe, expect, it } from 'vitest';
import { DEMAND_WINDOW_MS, HitReservations } from '../src/cluster/hit-reservations.js';

// The bookkeeping of the Redis limiter's reserved hits, without Redis: `now` is given, so the
// demand windows are exact (redis-rate-limiter.test.ts runs the round trips).
describe('hit reservations: demand and sizing', () => {
  const seen = (r: HitReservations, bucket: string, hits: number, at: number) => {
    for (let i = 0; i < hits; i++) r.take(bucket, 1_000_000, 60_000, at);
  };

  it('a bucket busy for one tenth of a second is sized at once, a tenth of a second of its hits', () => {
    expect(DEMAND_WINDOW_MS).toBe(100);
    const r = new HitReservations();
    seen(r, 'k', 500, 0); // 5,000 hits/s for a tenth of a second
    expect(r.wanted('k')).toBe(0); // the window is not over yet
    seen(r, 'k', 1, DEMAND_WINDOW_MS);
    expect(r.wanted('k')).toBe(500);
  });

  it('below 100 hits a second nothing is reserved; the size is capped at 10,000', () => {
    const r = new HitReservations();
    seen(r, 'quiet', 9, 0);
    seen(r, 'quiet', 1, 100);
    expect(r.wanted('quiet')).toBe(0);
    seen(r, 'edge', 10, 0);
    seen(r, 'edge', 1, 100);
    expect(r.wanted('edge')).toBe(10);
    seen(r, 'huge', 500_000, 0);
    seen(r, 'huge', 1, 100);
    expect(r.wanted('huge')).toBe(10_000);
  });

  it('a bucket idle for a whole window is quiet again', () => {
    const r = new HitReservations();
    seen(r, 'k', 500, 0);
    seen(r, 'k', 1, 250); // the window before was empty: 0..100 ended 150 ms ago
    expect(r.wanted('k')).toBe(0);
  });

  it('reserved numbers are handed out in order; the refill is asked for half-way, once', () => {
    const r = new HitReservations();
    seen(r, 'k', 100, 0);
    seen(r, 'k', 1, 100);
    r.add('k', 1_000_000, 60_000, 110, 60_000, 10); // Redis counted 101…110 for this instance
    // Taken one by one as the limiter does, marking the refill under way where one is asked for.
    const asked: number[] = [];
    const taken = Array.from({ length: 11 }, (_, i) => {
      const t = r.take('k', 1_000_000, 60_000, 101);
      if (t?.refill !== undefined) {
        asked.push(i);
        t.refill.refilling = true;
      }
      return t;
    });
    expect(taken.slice(0, 10).map((t) => t?.count)).toEqual([101, 102, 103, 104, 105, 106, 107, 108, 109, 110]);
    expect(taken[10]?.count).toBeUndefined();
    // Half used after the 5th: the 6th asks for the refill, and nothing after it while it is under way.
    expect(asked).toEqual([5]);
    expect(r.wanted('k')).toBe(0); // one refill at a time
    // Another limit or window does not use these numbers.
    expect(r.take('k', 5, 60_000, 102)).toBeUndefined();
  });
});
