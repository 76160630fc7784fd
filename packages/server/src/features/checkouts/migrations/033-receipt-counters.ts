import type { Kysely } from 'kysely';

/**
 * v33 (receipts, spec/commerce.md "Receipts"): one counter row
 * per merchant, taken (inserted or incremented, locked until commit) in the settlement
 * transaction, so receipt numbers run 1..n per merchant with no gap and no duplicate, across
 * instances too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('receipt_counters')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();
}
