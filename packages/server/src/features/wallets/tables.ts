import type { Migration } from '../../store/migrate.js';

/**
 * The wallets feature's tables: their row types, merged into the store's `Database` (the way
 * features add their provisions), so queries anywhere type-check against every registered table.
 * Money columns are decimal text, times ISO 8601 UTC strings with milliseconds, booleans 0/1
 * integers, so both dialects agree.
 */

export interface WalletTable {
  id: string;
  merchant_id: string;
  asset_id: string;
  chain_id: string;
  active: number;
  amount: string;
  freeze_amount: string;
  created_at: string;
  updated_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    wallets: WalletTable;
  }
}

/** The migrations of this feature's tables: none of its own (wallets was created by migration 1 (merchants' "initial").) */
export const walletsMigrations: readonly Migration[] = [];
