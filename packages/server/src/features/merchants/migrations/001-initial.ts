import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/** v1: every table of the core service. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('expires_at', t.time)
    .addColumn('ip_allow_list', 'text')
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('revoked_at', t.time)
    .addColumn('last_used_at', t.time)
    .execute();
  await db.schema.createIndex('api_keys_merchant').on('api_keys').column('merchant_id').execute();

  await db.schema
    .createTable('merchant_grants')
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('merchant_grants_pk', ['key_id', 'merchant_id'])
    .execute();

  await db.schema
    .createTable('assets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('symbol', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('image', 'text', (c) => c.notNull())
    .addColumn('decimals', 'integer', (c) => c.notNull())
    .addColumn('is_crypto', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('chains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('symbol', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('networks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id'))
    .addColumn('chain_id', 'text', (c) => c.notNull().references('chains.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('deposit_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint('networks_asset_chain', ['asset_id', 'chain_id'])
    .execute();

  await db.schema
    .createTable('wallets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id'))
    .addColumn('chain_id', 'text', (c) => c.notNull().references('chains.id'))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('amount', t.money, (c) => c.notNull().defaultTo('0'))
    .addColumn('freeze_amount', t.money, (c) => c.notNull().defaultTo('0'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('wallets_merchant_asset_chain', ['merchant_id', 'asset_id', 'chain_id'])
    .execute();

  await db.schema
    .createTable('ledger_postings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount', t.money, (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('amount_after', t.money, (c) => c.notNull())
    .addColumn('freeze_amount_after', t.money, (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('ledger_postings_idempotency', ['wallet_id', 'idempotency_key'])
    .execute();

  await db.schema
    .createTable('fee_schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('from_amount', t.money, (c) => c.notNull().defaultTo('0'))
    .addColumn('is_percentage', 'integer', (c) => c.notNull())
    .addColumn('value', t.money, (c) => c.notNull())
    .addColumn('min_value', t.money, (c) => c.notNull().defaultTo('0'))
    .addColumn('on_chain_fee', t.money, (c) => c.notNull().defaultTo('0'))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('fee_schedules_tier', ['merchant_id', 'currency', 'from_amount'])
    .execute();

  await db.schema
    .createTable('settlement_currencies')
    .addColumn('merchant_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('settlement_currency', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('settlement_currencies_pk', ['merchant_id', 'currency'])
    .execute();

  await db.schema
    .createTable('rates')
    .addColumn('base', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    .addColumn('rate', t.money, (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('rates_pk', ['base', 'quote'])
    .execute();
}
