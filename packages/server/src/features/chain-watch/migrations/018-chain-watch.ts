import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../../../store/migrations/column-types.js';

/**
 * v18: the EVM watcher becomes the chain watcher, one generic part over an
 * adapter per chain family. Its tables keep every row under chain_* names; a watch names its
 * adapter kind (every existing one is an EVM JSON-RPC node), may carry an API key (sealed like
 * the node URL), and remembers the network its node serves as text (an EVM chain id in decimal,
 * or a Bitcoin/TRON genesis hash) instead of the EVM-only node_chain_id. A payout transaction
 * keeps its network fee (read from its receipt when mined) for the watcher's completion.
 */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('evm_watches').renameTo('chain_watches').execute();
  await db.schema.alterTable('evm_watch_blocks').renameTo('chain_watch_blocks').execute();
  await db.schema
    .alterTable('chain_watches')
    .addColumn('adapter_kind', 'text', (c) => c.notNull().defaultTo('evm-rpc'))
    .execute();
  await db.schema.alterTable('chain_watches').addColumn('api_key_sealed', 'text').execute();
  await db.schema.alterTable('chain_watches').addColumn('network_id', 'text').execute();
  await sql`UPDATE chain_watches SET network_id = CAST(node_chain_id AS TEXT) WHERE node_chain_id IS NOT NULL`.execute(
    db,
  );
  await db.schema.alterTable('chain_watches').dropColumn('node_chain_id').execute();
  // Payout confirmations are counted by the chain watcher now: the network fee
  // the sender read from the receipt waits on the transaction until the payout completes.
  await db.schema.alterTable('hot_wallet_txs').addColumn('network_fee', 'text').execute();
}
