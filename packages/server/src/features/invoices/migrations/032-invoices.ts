import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v32: invoices (spec/commerce.md, "Invoices"). A draft has no number and no token; finalize
 * takes the next number from the merchant's counter row (locked), so numbers are gap-free and
 * unique per merchant (the unique index is the backstop). The public page's token is kept as its
 * SHA-256 (looked up by it) and sealed with the master key (so `url` can be answered again).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('number', 'text')
    .addColumn('seq', 'integer')
    .addColumn('customer_name', 'text')
    .addColumn('customer_email', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('line_items', 'text', (c) => c.notNull())
    .addColumn('subtotal', t.money, (c) => c.notNull())
    .addColumn('tax', t.money, (c) => c.notNull())
    .addColumn('total', t.money, (c) => c.notNull())
    .addColumn('amount_paid', t.money, (c) => c.notNull())
    .addColumn('due_at', t.time)
    .addColumn('memo', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('token_sealed', 'text')
    .addColumn('finalized_at', t.time)
    .addColumn('paid_at', t.time)
    .addColumn('voided_at', t.time)
    .addColumn('uncollectible_at', t.time)
    .addColumn('sent_at', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('invoices_merchant_created')
    .on('invoices')
    .columns(['merchant_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('invoices_merchant_seq')
    .on('invoices')
    .columns(['merchant_id', 'seq'])
    .unique()
    .execute();
  await db.schema.createIndex('invoices_merchant_number').on('invoices').columns(['merchant_id', 'number']).execute();
  await db.schema
    .createTable('invoice_counters')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey().references('merchants.id'))
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('invoice_pay_nonces')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('checkout_id', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
}
