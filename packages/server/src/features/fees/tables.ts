import type { Migration } from '../../store/migrate.js';

// The fees feature's tables (added to the store's Database below) and the migrations that made them.

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

/** None of its own: migration 1 (merchants' "initial") created fee_schedules and settlement_currencies. */
export const feesMigrations: readonly Migration[] = [];
