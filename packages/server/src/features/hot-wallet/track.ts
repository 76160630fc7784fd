import type { Hash, Hex } from 'viem';
import { bumpedFees, currentFees, nodeKnows, receiptOf, type Fees } from './chain-ops.js';
import { iso, payoutFailed, roundsError, type SendContext, type TxRow } from './context.js';
import { broadcastRow, markSentOnce, signAndStore } from './send.js';
import { settleCancel } from './cancel.js';
import { remembered, sendAgain } from './forgotten.js';
import { HOT_WALLET_SENDER } from './metrics.js';
import { OPEN_STATUSES } from './service.js';

/**
 * Follows every nonce the wallet has a transaction in flight for: one of its transactions (the
 * original or a fee bump) mined → kept with its block, for the chain watcher to count its
 * confirmations up to the chain's depth and complete the payout; a mined transaction the chain lost (reorganisation) → the payout goes back to
 * sent and the stored bytes are broadcast again; nothing mined in time → a replacement with a
 * higher fee, stored before it is broadcast. Returns how many transactions are still only signed
 * (a broadcast that failed): no new payout is signed behind them.
 */
export async function trackOpen(c: SendContext): Promise<{ unsent: number }> {
  const db = c.store.db;
  const open = await db
    .selectFrom('hot_wallet_txs')
    .select('nonce')
    .distinct()
    .where('chain_id', '=', c.hw.chain_id)
    .where('status', 'in', [...OPEN_STATUSES])
    .execute();
  let unsent = 0;
  for (const { nonce } of open.sort((a, b) => Number(a.nonce) - Number(b.nonce))) {
    const rows = await db
      .selectFrom('hot_wallet_txs')
      .selectAll()
      .where('chain_id', '=', c.hw.chain_id)
      .where('nonce', '=', nonce)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    try {
      if (!(await trackNonce(c, rows))) unsent++;
    } catch (err) {
      // One nonce's trouble is its payout's: the nonces after it are followed all the same (a
      // mined one recorded, a stuck one bumped). Only the node's or the lease's is the round's.
      if (roundsError(err)) throw err;
      payoutFailed(c, rows[0]!.payout_id, Number(nonce), err);
      // Its latest transaction never went out: nothing new is signed behind the gap.
      if (rows[rows.length - 1]!.status === 'signed') unsent++;
    }
  }
  return { unsent };
}

/** One nonce's transactions (oldest first); false when its latest is still unbroadcast. */
async function trackNonce(c: SendContext, rows: TxRow[]): Promise<boolean> {
  // Completed by the chain watcher since the open nonces were listed: nothing left to follow (else
  // its row went back to `mined` with 0 confirmations, to be counted all over again).
  if (rows.some((r) => r.status === 'confirmed')) return true;
  let mined: { row: TxRow; receipt: NonNullable<Awaited<ReturnType<typeof receiptOf>>> } | undefined;
  for (const row of rows) {
    const receipt = await receiptOf(c.rpc, row.tx_hash as Hash);
    if (receipt !== null) mined = { row, receipt };
  }
  const payoutId = rows[0]!.payout_id;
  const counted = rows.find((r) => r.status === 'mined');
  const port = c.port;

  if (mined === undefined) {
    if (counted !== undefined) {
      // The block it was counted in is no longer the chain's: back to sent, counted again later.
      await port?.markReorged(payoutId);
      await letGo(c, counted);
      counted.status = 'broadcast';
      counted.block_hash = null;
      counted.block_number = null;
      counted.confirmations = 0;
    }
    const latest = counted ?? rows[rows.length - 1]!;
    const bumps = rows.length - 1;
    if (latest.status === 'signed') {
      if (await sendAgain(c, latest, true)) return true;
      // Refused while its fee is below what the node asks now (the base fee rose while it waited
      // unsent, after a crash say): signed again at its nonce with a higher fee, stored before it
      // goes out. Refused for anything else (no funds for gas), a higher fee would not help.
      // Whichever of the two the chain mines is recorded, as for any bump.
      if (bumps >= c.maxFeeBumps) return false;
      const now = await currentFees(c.rpc);
      if (BigInt(latest.max_fee_per_gas) >= now.maxFeePerGas) return false;
      return sendAgain(c, await bump(c, latest, now), false);
    }
    const since = latest.broadcast_at === null ? 0 : c.now() - new Date(latest.broadcast_at).getTime();
    if (counted === undefined && since >= c.replaceAfterMs && bumps < c.maxFeeBumps) {
      await broadcastRow(c, await bump(c, latest), false);
      return true;
    }
    if (await nodeKnows(c.rpc, latest.tx_hash as Hash)) {
      await remembered(c, latest);
      await markSentOnce(c, latest);
      return true;
    }
    // The node forgot it (a restart of the node, a reorganisation that dropped it): the same bytes
    // again; refused, the transaction is marked forgotten for the operators (forgotten.ts).
    return sendAgain(c, latest, true);
  }

  const { row, receipt } = mined;
  const others = rows.filter((r) => r.id !== row.id && r.status !== 'replaced');
  const blockNumber = Number(receipt.blockNumber);
  const moved = counted !== undefined && (counted.id !== row.id || counted.block_hash !== receipt.blockHash);
  if (moved) {
    // Mined again in another block: the confirmations restart from there.
    await port?.markReorged(payoutId);
    await letGo(c, counted);
  }
  // Told again whenever it is newly seen mined, whatever the flag says (markSentOnce, `force`).
  await markSentOnce(c, row, 'mined', moved || row.status !== 'mined');
  if (receipt.status === 'reverted') {
    // The payout first (idempotent): a crash before the row below is written finds it again.
    await port?.markFailed(
      payoutId,
      `the transaction ${row.tx_hash} reverted on chain (block ${blockNumber})`,
      'system',
    );
    await c.store.writeTransaction(async (trx) => {
      await trx
        .updateTable('hot_wallet_txs')
        .set({ status: 'failed', block_hash: receipt.blockHash, block_number: blockNumber })
        .where('id', '=', row.id)
        .execute();
      if (others.length > 0)
        await trx
          .updateTable('hot_wallet_txs')
          .set({ status: 'replaced', replaced_by: row.id })
          .where(
            'id',
            'in',
            others.map((o) => o.id),
          )
          .execute();
      // An operator's cancel by replacement lost the nonce to the payout's own transaction: ended
      // `lost`, as when it is mined to the depth (confirmations.ts), else it stays open for good.
      await settleCancel(trx, payoutId, 'lost', iso(c), row.tx_hash);
    });
    return true;
  }
  // Mined: kept with its block and, for a native transfer, the fee its receipt shows. Its
  // confirmations are the chain watcher's to count (chain-watch/follow-payouts.ts, through
  // confirmations.ts), from the blocks it checks; the payout completes there at the depth.
  const fresh = moved || row.status !== 'mined';
  if (!fresh) return true;
  const networkFee =
    c.nativeAsset !== null && c.rpc.viem.parseTransaction(row.raw as Hex).data === undefined
      ? fee(receipt.gasUsed * receipt.effectiveGasPrice, c.nativeDecimals)
      : null;
  await c.store.writeTransaction(async (trx) => {
    await trx
      .updateTable('hot_wallet_txs')
      .set({
        status: 'mined',
        block_hash: receipt.blockHash,
        block_number: blockNumber,
        confirmations: 0,
        network_fee: networkFee,
        broadcast_at: row.broadcast_at ?? iso(c),
      })
      .where('id', '=', row.id)
      .execute();
    if (others.length > 0)
      await trx
        .updateTable('hot_wallet_txs')
        .set({ status: 'replaced', replaced_by: row.id })
        .where(
          'id',
          'in',
          others.map((o) => o.id),
        )
        .execute();
  });
  return true;
}

/** The replacement of `latest` at its nonce with a higher fee (the bump rule), stored, not yet broadcast. */
async function bump(c: SendContext, latest: TxRow, now?: Fees): Promise<TxRow> {
  const fees = bumpedFees(
    { maxFeePerGas: BigInt(latest.max_fee_per_gas), maxPriorityFeePerGas: BigInt(latest.max_priority_fee_per_gas) },
    now ?? (await currentFees(c.rpc)),
  );
  const tx = c.rpc.viem.parseTransaction(latest.raw as Hex);
  const next = await signAndStore(
    c,
    {
      payoutId: latest.payout_id,
      nonce: Number(latest.nonce),
      to: tx.to as Hex,
      value: tx.value ?? 0n,
      data: tx.data,
      gas: BigInt(latest.gas_limit),
      fees,
    },
    latest,
  );
  c.metrics.replaced.inc({ chain: c.hw.symbol });
  return next;
}

/**
 * Takes a counted transaction out of the block it was counted in (back to in flight), the payout
 * told first (as the watcher does: a crash in between is found again next round). Counted in
 * hostpay_hot_wallet_reorgs_total only by whoever moves the row — this tracker or the chain
 * watcher (confirmations.ts), whichever sees the reorganisation first — so it is counted once.
 */
async function letGo(c: SendContext, counted: TxRow): Promise<void> {
  const r = await c.store.writeTransaction((trx) =>
    trx
      .updateTable('hot_wallet_txs')
      .set({ status: 'broadcast', block_hash: null, block_number: null, confirmations: 0 })
      .where('id', '=', counted.id)
      .where('status', '=', 'mined')
      .where('block_hash', '=', counted.block_hash)
      .executeTakeFirst(),
  );
  if ((r.numUpdatedRows ?? 0n) > 0n) c.metrics.reorgs.inc({ chain: c.hw.symbol, sender: HOT_WALLET_SENDER });
}

function fee(wei: bigint, decimals: number): string {
  const s = wei.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return frac === '' ? whole : `${whole}.${frac}`;
}
