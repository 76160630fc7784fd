import type { Migration } from '../../store/migrate.js';

/**
 * The ledger feature's tables: their row types, merged into the store's `Database` (the way
 * features add their provisions), so queries anywhere type-check against every registered table.
 * Money columns are decimal text, times ISO 8601 UTC strings with milliseconds, booleans 0/1
 * integers, so both dialects agree.
 */

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

/** The migrations of this feature's tables: none of its own (ledger_postings was created by migration 1 (merchants' "initial").) */
export const ledgerMigrations: readonly Migration[] = [];
