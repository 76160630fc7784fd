import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v17: refund links. A merchant hands a payer a link to the hosted page where
 * the payer enters the address a refund goes to. Only the SHA-256 of the link's token is kept,
 * so a copy of the database opens no refund page; `amount` null means whatever is refundable when
 * the payer submits. A link is used once: `used_at` and the payout it requested are set together.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('refund_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('checkout_id', 'text', (c) => c.notNull().references('checkouts.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('amount', t.money)
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('used_at', t.time)
    .addColumn('payout_id', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refund_links_checkout').on('refund_links').columns(['checkout_id']).execute();
}
