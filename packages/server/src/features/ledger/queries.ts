import type { Db } from '../../store/store.js';
import type { LedgerPostingTable } from './tables.js';

export type PostingRow = LedgerPostingTable;

export function findPostingByKey(db: Db, walletId: string, idempotencyKey: string): Promise<PostingRow | undefined> {
  return db
    .selectFrom('ledger_postings')
    .selectAll()
    .where('wallet_id', '=', walletId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

export async function insertPosting(db: Db, row: PostingRow): Promise<void> {
  await db.insertInto('ledger_postings').values(row).execute();
}

export function listPostings(db: Db, walletId: string): Promise<PostingRow[]> {
  return db
    .selectFrom('ledger_postings')
    .selectAll()
    .where('wallet_id', '=', walletId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
