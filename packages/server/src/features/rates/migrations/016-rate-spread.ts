import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v16 (pricing): the operator's rate spread and what a checkout option was priced
 * from. `merchants.rate_spread_percent` is a merchant's own spread (decimal text, null: the
 * default), `pricing_settings` holds the default (`rate_spread_percent`) as a named row an
 * operator changes at runtime. Each option keeps its quote's source, time and the spread it was
 * priced with, so a merchant can audit its locked rate; older options have nulls there.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('merchants').addColumn('rate_spread_percent', 'text').execute();
  await db.schema
    .createTable('pricing_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('checkout_options').addColumn('rate_source', 'text').execute();
  await db.schema.alterTable('checkout_options').addColumn('rate_at', t.time).execute();
  await db.schema.alterTable('checkout_options').addColumn('rate_spread_percent', 'text').execute();
}
