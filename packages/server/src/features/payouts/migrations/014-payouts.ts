import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v14: money out (spec/payouts.md). The merchant's payout address book, payouts with
 * their timeline (who moved them: merchant, operator or system), the operators' network fee per
 * chain and asset, and three merchant settings: the cooling-off of new destinations, the
 * auto-approve limit and the rolling 24 h limits per asset (JSON object, asset → decimal text).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('payout_cooling_off_hours', 'integer', (c) => c.notNull().defaultTo(24))
    .execute();
  await db.schema
    .alterTable('merchants')
    .addColumn('payout_auto_approve_limit', 'text', (c) => c.notNull().defaultTo('0'))
    .execute();
  await db.schema
    .alterTable('merchants')
    .addColumn('payout_daily_limit', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();

  await db.schema
    .createTable('payout_destinations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('chain_id', 'text', (c) => c.notNull().references('chains.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('active_from', t.time, (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('payout_destinations_merchant')
    .on('payout_destinations')
    .columns(['merchant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('payouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
    .addColumn('asset_id', 'text', (c) => c.notNull())
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('network_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('amount', t.money, (c) => c.notNull())
    .addColumn('network_fee', t.money, (c) => c.notNull())
    .addColumn('total', t.money, (c) => c.notNull())
    // What this payout holds frozen right now: its total until a final move, then 0.
    .addColumn('frozen', t.money, (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('destination_id', 'text')
    .addColumn('destination_source', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('refund_of', 'text')
    .addColumn('tx_hash', 'text')
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payouts_merchant').on('payouts').columns(['merchant_id', 'created_at']).execute();
  await db.schema.createIndex('payouts_status').on('payouts').columns(['status', 'chain_id', 'created_at']).execute();
  await db.schema.createIndex('payouts_refund_of').on('payouts').column('refund_of').execute();

  await db.schema
    .createTable('payout_timeline')
    .addColumn('payout_id', 'text', (c) => c.notNull().references('payouts.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('by', 'text', (c) => c.notNull())
    .addColumn('at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('payout_timeline_pk', ['payout_id', 'seq'])
    .execute();

  await db.schema
    .createTable('payout_network_fees')
    .addColumn('chain_id', 'text', (c) => c.notNull().references('chains.id'))
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id'))
    .addColumn('fee', t.money, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('payout_network_fees_pk', ['chain_id', 'asset_id'])
    .execute();
}
