import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v23: the operators' way out of a hot-wallet payout stuck in flight.
 *
 * `hot_wallet_cancels`: one row per payout an operator asked to cancel by replacement (a
 * zero-value transfer to the wallet itself at the payout's nonce, with a higher fee). The sender
 * signs it once (the row moves from `requested` to `sent` in the transaction that stores the
 * replacement); the chain decides the rest: the replacement mined to the depth → `canceled` (the
 * payout failed, its total unfrozen), the payout's own transaction mined instead → `lost` (the
 * payout completed).
 *
 * `hot_wallet_txs.forgotten_at` / `node_error`: the node had no trace of the transaction (not in
 * its pool, no receipt, its nonce still unused) and the bytes sent again were refused; the node's
 * answer is kept for the operator (rebroadcast, or cancel by replacement).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('hot_wallet_cancels')
    .addColumn('payout_id', 'text', (c) => c.primaryKey())
    .addColumn('chain_id', 'text', (c) => c.notNull())
    .addColumn('nonce', 'bigint', (c) => c.notNull())
    // requested | sent | canceled | lost
    .addColumn('status', 'text', (c) => c.notNull())
    // The first replacement signed (a fee bump of it is its own row at the same nonce).
    .addColumn('tx_id', 'text')
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_at', t.time, (c) => c.notNull())
    .addColumn('resolved_at', t.time)
    .execute();
  await db.schema
    .createIndex('hot_wallet_cancels_open')
    .on('hot_wallet_cancels')
    .columns(['chain_id', 'status'])
    .execute();
  await db.schema.alterTable('hot_wallet_txs').addColumn('forgotten_at', t.time).execute();
  await db.schema.alterTable('hot_wallet_txs').addColumn('node_error', 'text').execute();
}
