import type { Migration } from '../../store/migrate.js';
import * as m001 from './migrations/001-initial.js';

// The merchants feature's tables (added to the store's Database below) and the migrations that made them.

export interface MerchantTable {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  /** Decimal text, 0..5: how far below amountDue a payment still completes a checkout. */
  underpayment_tolerance_percent: string;
  /** Hours a new payout destination cools off before use, 0..168 (migration 014). */
  payout_cooling_off_hours: number;
  /** Decimal text: a payout whose total is at most this (in its asset) is approved without an operator. */
  payout_auto_approve_limit: string;
  /** JSON object, asset symbol → decimal text: the rolling 24 h payout total allowed per asset. */
  payout_daily_limit: string;
  created_at: string;
  updated_at: string;
  /** Decimal text, 0..10: the merchant's own rate spread (percent); null: the default (pricing_settings). */
  rate_spread_percent: string | null;
  /** What the payment page shows instead of `name`; null: `name` (migration 020). */
  display_name: string | null;
  /** The payment page's logo: an https URL or a small data:image URL (merchants/settings.ts); null: none. */
  logo_url: string | null;
  /** The successUrl / cancelUrl a checkout gets when its request names none; null: none. */
  default_success_url: string | null;
  default_cancel_url: string | null;
}

/** Operator settings of pricing, one row per name (`rate_spread_percent`: the default spread). */
export interface PricingSettingTable {
  name: string;
  value: string;
  updated_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    merchants: MerchantTable;
    pricing_settings: PricingSettingTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const merchantsMigrations: readonly Migration[] = [
  // Named "initial": also creates the keys', catalog's, wallets', ledger's, fees' and rates' first tables.
  { version: 1, name: 'initial', up: m001.up },
];
