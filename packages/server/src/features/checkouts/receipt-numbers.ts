import { sql } from 'kysely';
import type { Db } from '../../store/store.js';
import { lockCheckout } from './queries.js';

type Dialect = 'sqlite' | 'postgres';

/** `RCPT-000001`: the prefix and six digits at least (a 1,000,000th receipt reads `RCPT-1000000`). */
export const receiptNumberText = (n: number) => `RCPT-${String(n).padStart(6, '0')}`;

/**
 * The merchant's next receipt number, inside the settlement transaction: one statement inserts
 * the counter at 1 or adds 1 to it and returns the value. On PostgreSQL the row stays locked until
 * the transaction ends, so a concurrent settlement of the same merchant waits and takes the next
 * number; a rollback gives the number back (no gap). SQLite has one writer at a time.
 */
export async function nextReceiptNumber(trx: Db, merchantId: string): Promise<string> {
  const row = await trx
    .insertInto('receipt_counters')
    .values({ merchant_id: merchantId, last_number: 1 })
    .onConflict((oc) => oc.column('merchant_id').doUpdateSet({ last_number: sql`receipt_counters.last_number + 1` }))
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return receiptNumberText(Number(row.last_number));
}

/**
 * The receipt number of settled checkout `id`, taken now when it has none: checkouts settled
 * before receipt numbers existed (migration 33) were given none, and their receipts would be 404.
 * Inside the caller's write transaction: the checkout row is locked first and re-read, then the
 * merchant's counter taken (the lock order of states.ts), so two requests at once for one
 * checkout take one number between them, and a rollback gives it back (no gap, no duplicate).
 * Null when the checkout is unknown or not settled.
 */
export async function backfillReceiptNumber(trx: Db, dialect: Dialect, id: string): Promise<string | null> {
  const row = await lockCheckout(trx, id, dialect);
  if (row === undefined || row.status !== 'settled') return null;
  if (row.receipt_number !== null) return row.receipt_number;
  const number = await nextReceiptNumber(trx, row.merchant_id);
  await trx.updateTable('checkouts').set({ receipt_number: number }).where('id', '=', id).execute();
  return number;
}
