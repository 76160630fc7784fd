import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v7: the EVM chain watcher (docs/chains.md). One row per watched chain: its RPC URL (sealed:
 * it often carries a provider key), the token contracts per asset, the poll interval, the scan
 * cursor (the last block fully reported) and the lease of the instance that watches it now. The
 * block hashes the watcher relied on are kept for a while, so a replaced block (reorganisation)
 * is noticed and the transfers reported from it retracted.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('evm_watches')
    .addColumn('chain_id', 'text', (c) => c.primaryKey().references('chains.id'))
    .addColumn('rpc_url_sealed', 'text', (c) => c.notNull())
    // The URL with its secrets masked, for answers and logs.
    .addColumn('rpc_url_shown', 'text', (c) => c.notNull())
    // JSON array text: [{ asset, contract, decimals }].
    .addColumn('tokens', 'text', (c) => c.notNull())
    // The chain's own coin (ETH on Ethereum), or null when native payments are not watched.
    .addColumn('native_asset', 'text')
    .addColumn('native_decimals', 'integer', (c) => c.notNull().defaultTo(18))
    .addColumn('poll_interval_ms', 'integer', (c) => c.notNull())
    .addColumn('allow_private_rpc', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // The node's chain id, seen at the first round: a URL changed to another network is refused
    // rather than taken for a reorganisation of everything.
    .addColumn('node_chain_id', 'bigint')
    .addColumn('start_block', 'bigint')
    .addColumn('cursor_block', 'bigint')
    .addColumn('head_block', 'bigint')
    .addColumn('last_round_at', t.time)
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', t.time)
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', t.time)
    .addColumn('created_at', t.time, (c) => c.notNull())
    .addColumn('updated_at', t.time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('evm_watch_blocks')
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('number', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('evm_watch_blocks_pk', ['chain_id', 'number'])
    .execute();
  // Transfers by the block they came from: a replaced block's transfers are found by its hash.
  await db.schema.createIndex('transfers_chain_block').on('transfers').columns(['chain_id', 'block_hash']).execute();
}
