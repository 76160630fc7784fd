import type { Migration } from '../../store/migrate.js';
import * as m014 from './migrations/014-payouts.js';

// The payouts feature's tables (added to the store's Database below) and the migrations that made them.

/** A merchant's payout address book (spec/payouts.md, "Destination"). */
export interface PayoutDestinationTable {
  id: string;
  merchant_id: string;
  chain_id: string;
  address: string;
  label: string | null;
  /** 'cooling_off' | 'active' | 'revoked'; cooling_off reads as active once active_from has passed. */
  status: string;
  active_from: string;
  created_at: string;
  updated_at: string;
}

export interface PayoutTable {
  id: string;
  merchant_id: string;
  wallet_id: string;
  asset_id: string;
  chain_id: string;
  network_id: string;
  status: string;
  reason: string | null;
  amount: string;
  network_fee: string;
  total: string;
  /** What this payout holds frozen in its wallet now: total until a final move, then 0. */
  frozen: string;
  destination: string;
  destination_id: string | null;
  /** 'book' (the merchant's address book) | 'payer' (a refund link's address). */
  destination_source: string;
  reference: string | null;
  refund_of: string | null;
  tx_hash: string | null;
  confirmations: number;
  created_at: string;
  updated_at: string;
}

export interface PayoutTimelineTable {
  payout_id: string;
  seq: number;
  status: string;
  reason: string | null;
  /** 'merchant' | 'operator' | 'system'. */
  by: string;
  at: string;
}

/** The operators' estimate of a payout's network fee, in the asset paid out (default 0). */
export interface PayoutNetworkFeeTable {
  chain_id: string;
  asset_id: string;
  fee: string;
  updated_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    payout_destinations: PayoutDestinationTable;
    payouts: PayoutTable;
    payout_timeline: PayoutTimelineTable;
    payout_network_fees: PayoutNetworkFeeTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const payoutsMigrations: readonly Migration[] = [{ version: 14, name: 'payouts', up: m014.up }];
