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
  /** Seller details printed on invoices and receipts; `support_email` is also the mails' Reply-To (migration 029). */
  legal_name: string | null;
  address: string | null;
  tax_id: string | null;
  support_email: string | null;
  /** Invoice numbers' prefix; null: `INV`. */
  invoice_prefix: string | null;
  /** 1: a checkout's `customerEmail` is mailed its receipt (default); 0: not. */
  email_receipts: number;
  /** The public pages' button and band colour, lowercase #rrggbb passing AA with white text; null: the default (migration 035). */
  brand_color: string | null;
  /** The public pages' link and focus colour, lowercase #rrggbb passing AA on the light grounds; null: the default. */
  accent_color: string | null;
  /** The language (i18n/languages.ts code) of the public pages and payer mails when the payer asks for none we have; null: English. */
  default_language: string | null;
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
