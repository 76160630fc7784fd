import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v21 (payouts): the transactions operators report for manual payouts on a watched EVM
 * chain, once checked to pay the payout and seen mined: the block they were mined in, for the
 * chain watcher to count their confirmations (as it counts the hot wallet's, from the blocks it
 * scanned and kept) and to notice a reorganisation by the block's hash. One row per payout: a
 * transaction mined again in another block replaces its row.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('manual_payout_txs')
    .addColumn('payout_id', 'text', (c) => c.primaryKey())
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('tx_hash', 'text', (c) => c.notNull())
    .addColumn('block_number', 'bigint', (c) => c.notNull())
    .addColumn('block_hash', 'text', (c) => c.notNull())
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
    // mined (the watcher counts it) | confirmed (the payout completed)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('mined_at', t.time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('manual_payout_txs_followed')
    .on('manual_payout_txs')
    .columns(['chain_id', 'status'])
    .execute();
}
