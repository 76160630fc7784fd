import type { Migration } from '../../store/migrate.js';
import * as m005 from './migrations/005-checkouts.js';
import * as m028 from './migrations/028-checkout-origins.js';
import * as m033 from './migrations/033-receipt-counters.js';

// The checkouts feature's tables (added to the store's Database below) and the migrations that made them.

export interface CheckoutTable {
  id: string;
  merchant_id: string;
  status: string;
  reason: string | null;
  amount: string;
  currency: string;
  /** JSON: the fee preview's fields for this amount and currency, exact decimals as strings. */
  fee: string;
  order_id: string | null;
  description: string | null;
  /** JSON object of string pairs. */
  metadata: string;
  success_url: string | null;
  cancel_url: string | null;
  tolerance_percent: string;
  settled_option_id: string | null;
  credited_posting_id: string | null;
  /** v28: the payment link or invoice that made it, the payer's email, the receipt number once settled. */
  payment_link_id: string | null;
  invoice_id: string | null;
  customer_email: string | null;
  receipt_number: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface CheckoutOptionTable {
  id: string;
  checkout_id: string;
  position: number;
  asset_id: string;
  chain_id: string;
  network_id: string;
  address: string;
  amount_due: string;
  rate: string;
  fee_in_asset: string;
  net_amount: string;
  confirmations_required: number;
  /** The quote's source (`identity` when the asset is the currency); null: created before v16. */
  rate_source: string | null;
  /** When the quote was made (its source answered). */
  rate_at: string | null;
  /** The spread (percent, decimal text) `rate` includes. */
  rate_spread_percent: string | null;
}

export interface TransferTable {
  id: string;
  chain_id: string;
  tx_hash: string;
  log_index: number;
  to_address: string;
  asset_id: string;
  amount: string;
  confirmations: number;
  block_time: string | null;
  block_hash: string | null;
  checkout_id: string | null;
  option_id: string | null;
  retracted: number;
  /** Why operators should look at it: 'unmatched' | 'extra_payment' | 'wrong_asset' | 'paid_late' | null. */
  exception: string | null;
  detected_at: string;
  updated_at: string;
}

export interface CheckoutTimelineTable {
  checkout_id: string;
  seq: number;
  status: string;
  reason: string | null;
  at: string;
}

/** v33: a merchant's last receipt number (receipt-numbers.ts). */
export interface ReceiptCounterTable {
  merchant_id: string;
  last_number: number;
}

declare module '../../store/database.js' {
  interface Database {
    checkouts: CheckoutTable;
    receipt_counters: ReceiptCounterTable;
    checkout_options: CheckoutOptionTable;
    transfers: TransferTable;
    checkout_timeline: CheckoutTimelineTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const checkoutsMigrations: readonly Migration[] = [
  // Also creates account_keys (catalog), deposit_addresses (addresses), events and event_sequences (events), and adds catalog columns.
  { version: 5, name: 'checkouts', up: m005.up },
  { version: 28, name: 'checkout-origins', up: m028.up },
  { version: 33, name: 'receipt-counters', up: m033.up },
];
