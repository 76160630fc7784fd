import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v31: payment links (spec/commerce.md, "Payment links"). A link is a reusable URL, `/l/{slug}`,
 * that makes a fresh checkout for each payer; its checkouts carry `payment_link_id` (v28). The
 * price is fixed once created: `amount` (with `line_items` when given), or null and the payer
 * types it within `min_amount`/`max_amount`. `payment_link_submissions` holds the public form's
 * nonces, each the idempotency key of the one checkout its submit made.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', t.money)
    .addColumn('min_amount', t.money)
    .addColumn('max_amount', t.money)
    .addColumn('line_items', 'text')
    .addColumn('payment_options', 'text')
    .addColumn('collect_email', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('success_url', 'text')
    .addColumn('cancel_url', 'text')
    .addColumn('max_uses', 'integer')
    .addColumn('expires_at', t.time)
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payment_links_merchant')
    .on('payment_links')
    .columns(['merchant_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('payment_link_submissions')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('payment_link_id', 'text', (c) => c.notNull().references('payment_links.id'))
    .addColumn('checkout_id', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
}
