import type { Store } from '../../store/store.js';
import type { PayoutChainPort } from '../chain-watch/payout-port.js';
import type { PayoutSenderPort } from './port.js';

/**
 * The hot wallet's side of payout confirmations: the chain watcher counts them (as it counts
 * payments', from the blocks it checked), this hands its count to the payouts feature and
 * completes the payout at the chain's depth. Only a transaction still `mined` in the block the
 * watcher checked moves: one the sender moved meanwhile (another block, a revert) is left alone.
 */
export function payoutChainPort(store: Store, port: () => PayoutSenderPort | undefined): PayoutChainPort {
  return {
    async followed(chainId) {
      const rows = await store.db
        .selectFrom('hot_wallet_txs')
        .select(['id', 'block_hash', 'block_number', 'confirmations'])
        .where('chain_id', '=', chainId)
        .where('status', '=', 'mined')
        .where('block_hash', 'is not', null)
        .where('block_number', 'is not', null)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        blockHash: r.block_hash!,
        blockNumber: Number(r.block_number),
        confirmations: r.confirmations,
      }));
    },
    async confirm(id, blockHash, confirmations, required) {
      const payouts = port();
      // Without the payouts feature its news would be lost: counted again once it is attached.
      if (payouts === undefined) return;
      const row = await store.db
        .selectFrom('hot_wallet_txs')
        .select(['payout_id', 'confirmations', 'network_fee'])
        .where('id', '=', id)
        .where('status', '=', 'mined')
        .where('block_hash', '=', blockHash)
        .executeTakeFirst();
      if (row === undefined || confirmations <= row.confirmations) return;
      const done = confirmations >= required;
      await payouts.markConfirmations(row.payout_id, Math.min(confirmations, required));
      if (done)
        await payouts.markCompleted(row.payout_id, row.network_fee === null ? {} : { networkFee: row.network_fee });
      await store.writeTransaction((trx) =>
        trx
          .updateTable('hot_wallet_txs')
          .set({ confirmations: Math.min(confirmations, required), status: done ? 'confirmed' : 'mined' })
          .where('id', '=', id)
          .where('status', '=', 'mined')
          .where('block_hash', '=', blockHash)
          .execute(),
      );
    },
  };
}
