import type { Migration } from '../../store/migrate.js';

/**
 * The fees feature's tables: their row types, merged into the store's `Database` (the way
 * features add their provisions), so queries anywhere type-check against every registered table.
 * Money columns are decimal text, times ISO 8601 UTC strings with milliseconds, booleans 0/1
 * integers, so both dialects agree.
 */

export interface FeeScheduleTable {
  id: string;
  /** '' for the operator's default schedule, else the merchant's override. */
  merchant_id: string;
  currency: string;
  /** Tier lower bound (inclusive), in the asked currency. */
  from_amount: string;
  is_percentage: number;
  value: string;
  min_value: string;
  on_chain_fee: string;
  created_at: string;
  updated_at: string;
}

export interface SettlementCurrencyTable {
  /** '' for the default, else the merchant's own choice. */
  merchant_id: string;
  currency: string;
  settlement_currency: string;
  updated_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    fee_schedules: FeeScheduleTable;
    settlement_currencies: SettlementCurrencyTable;
  }
}

/** The migrations of this feature's tables: none of its own (fee_schedules and settlement_currencies were created by migration 1 (merchants' "initial").) */
export const feesMigrations: readonly Migration[] = [];
