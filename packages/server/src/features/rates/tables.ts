import type { Migration } from '../../store/migrate.js';
import * as m012 from './migrations/012-rate-freshness.js';
import * as m013 from './migrations/013-rate-sources.js';
import * as m016 from './migrations/016-rate-spread.js';

// The rates feature's tables (added to the store's Database below) and the migrations that made them.

export interface RateTable {
  base: string;
  quote: string;
  /** 1 base = rate quote. */
  rate: string;
  source: string;
  updated_at: string;
  /** When the source answered (an operator's rate: when it was set). */
  fetched_at: string | null;
  /** How long after fetched_at the rate may be quoted; null: no limit (an operator's pinned rate). */
  max_age_seconds: number | null;
  /** 1: set by an operator, never overwritten by a rate feed until removed. */
  pinned: number;
}

/** A rate feed an operator configured (features/rates). */
export interface RateSourceTable {
  id: string;
  kind: string;
  /** Null: the provider's own address. */
  base_url_sealed: string | null;
  base_url_shown: string | null;
  /** JSON array text: ["BTC/EUR", …]. */
  pairs: string;
  refresh_seconds: number;
  max_age_seconds: number;
  enabled: number;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  last_latency_ms: number | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A source's last answer for one pair (1 base = rate quote). */
export interface RateObservationTable {
  source_id: string;
  base: string;
  quote: string;
  rate: string;
  fetched_at: string;
}

/** Per-pair rules of the rate feeds. */
export interface RatePairTable {
  base: string;
  quote: string;
  allow_cross: number;
  /** Percent; null: the default. */
  max_deviation_percent: string | null;
  updated_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    rates: RateTable;
    rate_sources: RateSourceTable;
    rate_observations: RateObservationTable;
    rate_pairs: RatePairTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const ratesMigrations: readonly Migration[] = [
  { version: 12, name: 'rate-freshness', up: m012.up },
  { version: 13, name: 'rate-sources', up: m013.up },
  // Also creates pricing_settings (merchants) and adds checkout_options and merchants columns.
  { version: 16, name: 'rate-spread', up: m016.up },
];
