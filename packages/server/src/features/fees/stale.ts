import { HostpayError } from '../../errors.js';
import { rateAge, type RateQuote } from '../rates/quote.js';

/**
 * How long a client is told to wait after RATE_STALE. The pricing code does not know a pair's
 * refresh interval (its source's), so it names a fixed, short wait: long enough not to hammer a
 * server whose feed is down, short enough that a feed that came back is used within seconds.
 */
export const RATE_STALE_RETRY_AFTER_SECONDS = 10;

/** A pair whose rate is past its maximum age at the moment of use. */
export interface StalePair {
  pair: string;
  ageSeconds: number;
  maxAgeSeconds: number;
}

/** `base/quote` with its age when `q` is past its maximum age at `nowMs`, else null. */
export function staleness(base: string, quote: string, q: RateQuote, nowMs: number): StalePair | null {
  const { ageSeconds, stale } = rateAge(q, nowMs);
  return stale && q.maxAgeSeconds !== null
    ? { pair: `${base}/${quote}`, ageSeconds, maxAgeSeconds: q.maxAgeSeconds }
    : null;
}

/** What a stale pair is called in a sentence. */
export const staleText = (s: StalePair) =>
  `the ${s.pair} rate is ${s.ageSeconds} s old (at most ${s.maxAgeSeconds} s may be quoted)`;

/**
 * 503 RATE_STALE naming every stale pair: the first as `pair`/`ageSeconds`/`maxAgeSeconds`, all of
 * them in `pairs`; `extra` adds to `details` (a checkout's `refused`).
 */
export function rateStaleError(what: string, pairs: StalePair[], extra: Record<string, unknown> = {}): HostpayError {
  const unique = [...new Map(pairs.map((p) => [p.pair, p])).values()];
  const first = unique[0]!;
  return new HostpayError(
    'RATE_STALE',
    `${what}: ${unique.map(staleText).join('; ')}; its source has not answered since, retry after the Retry-After seconds`,
    { ...first, pairs: unique, retryAfterSeconds: RATE_STALE_RETRY_AFTER_SECONDS, ...extra },
    { 'retry-after': String(RATE_STALE_RETRY_AFTER_SECONDS) },
  );
}
