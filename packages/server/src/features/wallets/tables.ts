import type { Migration } from '../../store/migrate.js';

// The wallets feature's tables (added to the store's Database below) and the migrations that made them.

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

/** None of its own: migration 1 (merchants' "initial") created wallets. */
export const walletsMigrations: readonly Migration[] = [];
