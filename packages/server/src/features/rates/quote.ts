import { Decimal } from '@hostpay/protocol';
import type { RateTable } from './tables.js';

/**
 * A stored rate as the pricing code uses it: the number, where it came from, when, and how long
 * it may be quoted. Staleness is decided at the moment of use (`rateAge`), never cached, because
 * a rate goes stale by time passing, not by a write.
 */
export interface RateQuote {
  /** 1 base = rate quote. */
  rate: Decimal;
  /** `manual`, a source id, or how it was derived (median of sources, a cross). */
  source: string;
  /** ISO time the source answered (an operator's rate: when it was set). */
  at: string;
  /** Null: may be quoted as long as it is stored (an operator's pinned rate). */
  maxAgeSeconds: number | null;
  pinned: boolean;
  /** Set when `rate` is the inverse of the stored reverse pair: that stored rate (checkout pricing inverts it rounding up). */
  inverseOf?: Decimal | undefined;
}

/** The identity rate (an asset priced in itself): never stale. */
export function identityQuote(nowIso: string): RateQuote {
  return { rate: new Decimal(1), source: 'identity', at: nowIso, maxAgeSeconds: null, pinned: true };
}

export function quoteOfRow(row: RateTable): RateQuote {
  return {
    rate: new Decimal(row.rate),
    source: row.source,
    at: row.fetched_at ?? row.updated_at,
    maxAgeSeconds: row.max_age_seconds,
    pinned: row.pinned === 1,
  };
}

/** Age in whole seconds at `nowMs`, and whether the quote is past its maximum age. */
export function rateAge(q: RateQuote, nowMs: number): { ageSeconds: number; stale: boolean } {
  const ageSeconds = Math.max(0, Math.floor((nowMs - Date.parse(q.at)) / 1000));
  return { ageSeconds, stale: q.maxAgeSeconds !== null && ageSeconds > q.maxAgeSeconds };
}
