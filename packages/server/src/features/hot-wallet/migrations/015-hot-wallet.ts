import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v15: the EVM hot wallet that sends approved payouts by itself (docs/payouts.md, "The evm-hot-wallet sender").
 * One row per chain: its address, its private key sealed under the master key (bound to the
 * chain), the next nonce it will use and the lease of the one instance that sends on the chain.
 * Every transaction it signs is a row, committed before it is broadcast: a restart broadcasts
 * the stored bytes again and never signs another transaction for the same payout, except a fee
 * bump, which is its own row with the same nonce.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('hot_wallets')
    .addColumn('chain_id', 'text', (c) => c.primaryKey().references('chains.id'))
    // Lower-case 0x address.
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    // The nonce the next new transaction takes; null until the node was first asked.
    .addColumn('next_nonce', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', t.time)
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('hot_wallet_txs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payout_id', 'text', (c) => c.notNull())
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('nonce', 'bigint', (c) => c.notNull())
    // The signed transaction as broadcast (0x hex): what a restart sends again.
    .addColumn('raw', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    // Wei, as decimal text (bigints beyond 2^53).
    .addColumn('max_fee_per_gas', 'text', (c) => c.notNull())
    .addColumn('max_priority_fee_per_gas', 'text', (c) => c.notNull())
    .addColumn('gas_limit', 'text', (c) => c.notNull())
    // signed | broadcast | mined | confirmed | replaced | failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('block_hash', 'text')
    .addColumn('block_number', 'bigint')
    // The payout was told it is sent with this transaction's hash.
    .addColumn('marked_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('replaced_by', 'text')
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('broadcast_at', t.time)
    .execute();
  // One transaction per nonce and fee level: a second signing for the same slot fails.
  await db.schema
    .createIndex('hot_wallet_txs_nonce')
    .on('hot_wallet_txs')
    .columns(['chain_id', 'nonce', 'max_fee_per_gas'])
    .unique()
    .execute();
  await db.schema.createIndex('hot_wallet_txs_payout').on('hot_wallet_txs').columns(['payout_id']).execute();
  await db.schema.createIndex('hot_wallet_txs_open').on('hot_wallet_txs').columns(['chain_id', 'status']).execute();
}
