import type { Migration } from '../../store/migrate.js';

// The addresses feature's tables (added to the store's Database below) and the migrations that made them.

export interface DepositAddressTable {
  id: string;
  chain_id: string;
  account_key_id: string;
  derivation_index: number;
  address: string;
  checkout_id: string | null;
  option_id: string | null;
  created_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    deposit_addresses: DepositAddressTable;
  }
}

/** None of its own: migration 5 (checkouts') created deposit_addresses. */
export const addressesMigrations: readonly Migration[] = [];
