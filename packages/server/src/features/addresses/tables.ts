import type { Migration } from '../../store/migrate.js';

/**
 * The addresses feature's tables: their row types, merged into the store's `Database` (the way
 * features add their provisions), so queries anywhere type-check against every registered table.
 * Money columns are decimal text, times ISO 8601 UTC strings with milliseconds, booleans 0/1
 * integers, so both dialects agree.
 */

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

/** The migrations of this feature's tables: none of its own (deposit_addresses was created by migration 5 (checkouts').) */
export const addressesMigrations: readonly Migration[] = [];
