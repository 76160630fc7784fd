import type { Migration } from '../../store/migrate.js';

// The ledger feature's tables (added to the store's Database below) and the migrations that made them.

export type PostingKind = 'credit' | 'debit' | 'freeze' | 'unfreeze';

export interface LedgerPostingTable {
  id: string;
  wallet_id: string;
  kind: PostingKind;
  amount: string;
  idempotency_key: string;
  amount_after: string;
  freeze_amount_after: string;
  created_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    ledger_postings: LedgerPostingTable;
  }
}

/** None of its own: migration 1 (merchants' "initial") created ledger_postings. */
export const ledgerMigrations: readonly Migration[] = [];
