import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v5: hosted checkouts (spec/checkout.md). The catalog becomes operator-managed (chain family,
 * network type, confirmations, token contracts, account keys for deposit addresses); checkouts,
 * their payment options, observed transfers, the timeline, and the event outbox with a
 * per-merchant sequence. The merchant gains an underpayment tolerance.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .alterTable('assets')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('chains')
    .addColumn('family', 'text', (c) => c.notNull().defaultTo('evm'))
    .execute();
  await db.schema
    .alterTable('chains')
    .addColumn('network_type', 'text', (c) => c.notNull().defaultTo('mainnet'))
    .execute();
  await db.schema
    .alterTable('chains')
    .addColumn('confirmations_required', 'integer', (c) => c.notNull().defaultTo(12))
    .execute();
  await db.schema.alterTable('chains').addColumn('account_key_id', 'text').execute();
  await db.schema
    .alterTable('chains')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('networks').addColumn('token_contract', 'text').execute();
  const d = db as Kysely<Record<string, Record<string, unknown>>>;
  await d.updateTable('chains').set({ family: 'btc', confirmations_required: 2 }).where('symbol', '=', 'BTC').execute();
  await d
    .updateTable('chains')
    .set({ family: 'tron', confirmations_required: 19 })
    .where('symbol', '=', 'TRON')
    .execute();
  await d
    .updateTable('chains')
    .set({ family: 'evm', confirmations_required: 12 })
    .where('symbol', '=', 'ETH')
    .execute();
  // Mainnet contracts of the reference tokens: a payer's wallet needs them for EIP-681 / TRC-20.
  const contracts: [string, string][] = [
    ['net_usdt_eth', '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
    ['net_usdc_eth', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
    ['net_usdt_tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['net_usdc_tron', 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8'],
  ];
  for (const [id, contract] of contracts)
    await d.updateTable('networks').set({ token_contract: contract }).where('id', '=', id).execute();

  await db.schema
    .alterTable('merchants')
    .addColumn('underpayment_tolerance_percent', 'text', (c) => c.notNull().defaultTo('0'))
    .execute();

  // An account-level extended public key; chains sharing it (EVM chains) share its counter.
  await db.schema
    .createTable('account_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('network_type', 'text', (c) => c.notNull())
    .addColumn('xpub', 'text', (c) => c.notNull())
    .addColumn('next_index', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('account_keys_xpub', ['family', 'network_type', 'xpub'])
    .execute();

  // Every address handed out, once: (key, index) and (chain, address) are unique.
  await db.schema
    .createTable('deposit_addresses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('chain_id', 'text', (c) => c.notNull().references('chains.id'))
    .addColumn('account_key_id', 'text', (c) => c.notNull().references('account_keys.id'))
    .addColumn('derivation_index', 'integer', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('checkout_id', 'text')
    .addColumn('option_id', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('deposit_addresses_index', ['account_key_id', 'derivation_index'])
    .addUniqueConstraint('deposit_addresses_address', ['chain_id', 'address'])
    .execute();

  await db.schema
    .createTable('checkouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('amount', t.money, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('fee', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('description', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('success_url', 'text')
    .addColumn('cancel_url', 'text')
    .addColumn('tolerance_percent', 'text', (c) => c.notNull())
    .addColumn('settled_option_id', 'text')
    .addColumn('credited_posting_id', 'text')
    .addColumn('expires_at', t.time, (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('checkouts_merchant_created')
    .on('checkouts')
    .columns(['merchant_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('checkouts_status_expires').on('checkouts').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('checkouts_created').on('checkouts').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('checkout_options')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('checkout_id', 'text', (c) => c.notNull().references('checkouts.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id'))
    .addColumn('chain_id', 'text', (c) => c.notNull().references('chains.id'))
    .addColumn('network_id', 'text', (c) => c.notNull().references('networks.id'))
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('amount_due', t.money, (c) => c.notNull())
    .addColumn('rate', t.money, (c) => c.notNull())
    .addColumn('fee_in_asset', t.money, (c) => c.notNull())
    .addColumn('net_amount', t.money, (c) => c.notNull())
    .addColumn('confirmations_required', 'integer', (c) => c.notNull())
    .addUniqueConstraint('checkout_options_address', ['chain_id', 'address'])
    .execute();
  await db.schema
    .createIndex('checkout_options_checkout')
    .on('checkout_options')
    .columns(['checkout_id', 'position'])
    .execute();

  // What a chain indexer (or simulate-payment) reported; idempotent on chain + tx + index.
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('chain_id', 'text', (c) => c.notNull().references('chains.id'))
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('log_index', 'integer', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('asset_id', 'text', (c) => c.notNull().references('assets.id'))
    .addColumn('amount', t.money, (c) => c.notNull())
    .addColumn('confirmations', 'integer', (c) => c.notNull())
    .addColumn('block_time', t.time)
    .addColumn('block_hash', 'text')
    .addColumn('checkout_id', 'text')
    .addColumn('option_id', 'text')
    .addColumn('retracted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('exception', 'text')
    .addColumn('detected_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('transfers_chain_tx_index', ['chain_id', 'tx_hash', 'log_index'])
    .execute();
  await db.schema.createIndex('transfers_checkout').on('transfers').columns(['checkout_id', 'detected_at']).execute();
  await db.schema.createIndex('transfers_unmatched').on('transfers').columns(['checkout_id', 'exception']).execute();

  await db.schema
    .createTable('checkout_timeline')
    .addColumn('checkout_id', 'text', (c) => c.notNull().references('checkouts.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('at', t.time, (c) => c.notNull())
    .addPrimaryKeyConstraint('checkout_timeline_pk', ['checkout_id', 'seq'])
    .execute();

  // The outbox: events written in the same transaction as the change they report.
  await db.schema
    .createTable('event_sequences')
    .addColumn('merchant_id', 'text', (c) => c.primaryKey())
    .addColumn('last_sequence', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addUniqueConstraint('events_merchant_sequence', ['merchant_id', 'sequence'])
    .execute();
  await db.schema.createIndex('events_created').on('events').columns(['created_at', 'id']).execute();
}
