import { HostpayError } from '../../errors.js';
import { nowIso } from '../../store/ids.js';
import type { Db, Store } from '../../store/store.js';
import { settleCancel } from './cancel.js';
import { isCancelTx } from './chain-ops.js';
import type { FollowedTransaction, PayoutChainPort } from '../chain-watch/payout-port.js';
import { HOT_WALLET_SENDER, MANUAL_SENDER, type HotWalletMetrics } from './metrics.js';
import type { PayoutSenderPort } from './port.js';

const HOT = 'hot-wallet';
const MANUAL = 'manual';

/**
 * Both senders' side of payout confirmations on EVM chains: the chain watcher counts them (as it
 * counts payments', from the blocks it checked) for the hot wallet's mined transactions and for
 * the transactions operators reported for manual payouts once they were checked to pay the
 * payout (verify-sent.ts). This hands the count to the payouts feature and completes the payout
 * at the chain's depth, through the same moves for both, so `payout.completed` is emitted once.
 * Only a transaction still `mined` in the block the watcher checked moves: one the sender moved
 * meanwhile (another block, a revert) is left alone.
 */
export function payoutChainPort(
  store: Store,
  port: () => PayoutSenderPort | undefined,
  metrics: Pick<HotWalletMetrics, 'reorgs' | 'payoutErrors'>,
  log: { warn(msg: string): void } = { warn: () => undefined },
): PayoutChainPort {
  return {
    failed(t, chain, message) {
      metrics.payoutErrors.inc({ chain });
      log.warn(
        `payout confirmations on ${chain}: ${t.kind === HOT ? 'hot wallet transaction' : 'manual payout'} ${t.id}: ${message}; tried again next round`,
      );
    },
    async followed(chainId) {
      const hot = await store.db
        .selectFrom('hot_wallet_txs')
        .select(['id', 'block_hash', 'block_number', 'confirmations'])
        .where('chain_id', '=', chainId)
        .where('status', '=', 'mined')
        .where('block_hash', 'is not', null)
        .where('block_number', 'is not', null)
        .execute();
      const manual = await store.db
        .selectFrom('manual_payout_txs')
        .select(['payout_id', 'block_hash', 'block_number', 'confirmations'])
        .where('chain_id', '=', chainId)
        .where('status', '=', 'mined')
        .execute();
      return [
        ...hot.map((r) => followed(HOT, r.id, r.block_hash!, r.block_number!, r.confirmations)),
        ...manual.map((r) => followed(MANUAL, r.payout_id, r.block_hash, r.block_number, r.confirmations)),
      ];
    },
    async confirm(t, confirmations, required) {
      const payouts = port();
      // Without the payouts feature its news would be lost: counted again once it is attached.
      if (payouts === undefined) return;
      const row = await findMined(store, t);
      if (row === undefined || confirmations <= row.confirmations) return;
      const done = confirmations >= required;
      const counted = Math.min(confirmations, required);
      // A cancel by replacement counts on its own row: the payout's confirmations are its payment's.
      if (!row.cancel) await payouts.markConfirmations(row.payoutId, counted);
      if (done && row.cancel) {
        await settled(
          payouts.markFailed(
            row.payoutId,
            `canceled by replacement: transaction ${row.txHash} (zero value, to the hot wallet itself) took nonce ${row.nonce} in block ${t.blockNumber}; nothing was paid`,
            'system',
          ),
        );
      } else if (done) {
        const completed = settled(
          payouts.markCompleted(row.payoutId, row.networkFee === null ? {} : { networkFee: row.networkFee }),
        );
        if (!(await completed) && t.kind === MANUAL) return forget(store, t);
      }
      const status = done ? 'confirmed' : 'mined';
      await store.writeTransaction(async (trx) => {
        if (t.kind !== HOT) return updateManual(trx, t, counted, status);
        const r = await trx
          .updateTable('hot_wallet_txs')
          .set({ confirmations: counted, status })
          .where('id', '=', t.id)
          .where('status', '=', 'mined')
          .where('block_hash', '=', t.blockHash)
          .executeTakeFirst();
        // The operator's cancel, if any, ends with the chain's answer, once (the row moved once).
        if (done && (r.numUpdatedRows ?? 0n) > 0n)
          await settleCancel(trx, row.payoutId, row.cancel ? 'canceled' : 'lost', nowIso(), row.txHash);
      });
    },
    async reorged(t) {
      const payouts = port();
      if (payouts === undefined) return;
      const row = await findMined(store, t);
      if (row === undefined) return;
      // The payout first: a crash before the row is let go leaves it mined in the lost block, so
      // the next round finds the same mismatch and lets it go then (the move is idempotent).
      if (!(await settled(payouts.markReorged(row.payoutId))) && t.kind === MANUAL) return forget(store, t);
      const moved = await store.writeTransaction(async (trx) => {
        if (t.kind === HOT) {
          // Back to in flight: the tracker finds it mined again (another block) or sends its bytes again.
          const r = await trx
            .updateTable('hot_wallet_txs')
            .set({ status: 'broadcast', block_hash: null, block_number: null, confirmations: 0 })
            .where('id', '=', t.id)
            .where('status', '=', 'mined')
            .where('block_hash', '=', t.blockHash)
            .executeTakeFirst();
          return r.numUpdatedRows ?? 0n;
        }
        // Forgotten: the verifier looks for the reported transaction again and records its new block.
        const r = await trx
          .deleteFrom('manual_payout_txs')
          .where('payout_id', '=', t.id)
          .where('status', '=', 'mined')
          .where('block_hash', '=', t.blockHash)
          .executeTakeFirst();
        return r.numDeletedRows ?? 0n;
      });
      // Counted by whoever let the transaction go (the hot wallet's tracker may have seen it first).
      if (moved > 0n)
        metrics.reorgs.inc({ chain: row.chain, sender: t.kind === HOT ? HOT_WALLET_SENDER : MANUAL_SENDER });
    },
  };
}

function updateManual(trx: Db, t: FollowedTransaction, counted: number, status: 'mined' | 'confirmed') {
  return trx
    .updateTable('manual_payout_txs')
    .set({ confirmations: counted, status })
    .where('payout_id', '=', t.id)
    .where('status', '=', 'mined')
    .where('block_hash', '=', t.blockHash)
    .execute();
}

/**
 * false: the payout is no longer `sent` (an operator failed it while its transaction was counted);
 * any other error is the round's.
 */
async function settled(move: Promise<void>): Promise<boolean> {
  try {
    await move;
    return true;
  } catch (err) {
    if (err instanceof HostpayError && err.code === 'PAYOUT_STATE_CONFLICT') return false;
    throw err;
  }
}

/** A reported transaction whose payout was decided otherwise: no longer followed (else every round would fail on it). */
async function forget(store: Store, t: FollowedTransaction): Promise<void> {
  await store.writeTransaction((trx) =>
    trx.deleteFrom('manual_payout_txs').where('payout_id', '=', t.id).where('block_hash', '=', t.blockHash).execute(),
  );
}

function followed(
  kind: string,
  id: string,
  blockHash: string,
  blockNumber: number | string,
  confirmations: number,
): FollowedTransaction {
  return { id, kind, blockHash, blockNumber: Number(blockNumber), confirmations };
}

interface MinedRow {
  payoutId: string;
  chain: string;
  confirmations: number;
  networkFee: string | null;
  txHash: string;
  nonce: number;
  /** The hot wallet's cancel by replacement of the payout (chain-ops.ts, isCancelTx). */
  cancel: boolean;
}

/** The sender's record of `t`, if it is still mined in the block the watcher checked. */
async function findMined(store: Store, t: FollowedTransaction): Promise<MinedRow | undefined> {
  if (t.kind === HOT) {
    const r = await store.db
      .selectFrom('hot_wallet_txs as x')
      .innerJoin('chains as c', 'c.id', 'x.chain_id')
      .leftJoin('hot_wallets as h', 'h.chain_id', 'x.chain_id')
      .select([
        'x.payout_id',
        'c.symbol',
        'x.confirmations',
        'x.network_fee',
        'x.raw',
        'x.tx_hash',
        'x.nonce',
        'h.address',
      ])
      .where('x.id', '=', t.id)
      .where('x.status', '=', 'mined')
      .where('x.block_hash', '=', t.blockHash)
      .executeTakeFirst();
    if (r === undefined) return undefined;
    return {
      payoutId: r.payout_id,
      chain: r.symbol,
      confirmations: r.confirmations,
      networkFee: r.network_fee,
      txHash: r.tx_hash,
      nonce: Number(r.nonce),
      cancel: r.address !== null && (await isCancelTx(r.raw, r.address)),
    };
  }
  const r = await store.db
    .selectFrom('manual_payout_txs as x')
    .innerJoin('chains as c', 'c.id', 'x.chain_id')
    .select(['x.payout_id', 'c.symbol', 'x.confirmations', 'x.tx_hash'])
    .where('x.payout_id', '=', t.id)
    .where('x.status', '=', 'mined')
    .where('x.block_hash', '=', t.blockHash)
    .executeTakeFirst();
  // The operator reported the fee (if any) with the hash; completion keeps it.
  return (
    r && {
      payoutId: r.payout_id,
      chain: r.symbol,
      confirmations: r.confirmations,
      networkFee: null,
      txHash: r.tx_hash,
      nonce: 0,
      cancel: false,
    }
  );
}
