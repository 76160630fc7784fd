import type { Hash, Hex } from 'viem';
import { newId } from '../../store/ids.js';
import type { Db } from '../../store/store.js';
import type { HotWalletCancelStatus } from './tables.js';
import { recordAudit } from '../audit/service.js';
import { bumpedFees, currentFees, receiptOf } from './chain-ops.js';
import { holdSenderLease, iso, payoutFailed, roundsError, type SendContext, type TxRow } from './context.js';
import { openKey } from './key.js';
import { sendAgain } from './forgotten.js';

/** What a zero-value transfer to an address without code costs: all a cancel spends. */
const TRANSFER_GAS = 21_000n;

/** Who the outcome of a cancel is audited as: the chain decided it, through the sender. */
export const HOT_WALLET_AUDIT = { operator: 'hot-wallet' } as const;

/**
 * The cancels operators asked for on this chain (hot_wallet_cancels, `requested`): each is signed
 * once, at the payout's nonce with a fee above the bump rule's minimum over its latest
 * transaction, and stored — its request moved to `sent`, the transaction it replaces marked
 * `replaced` — before it is broadcast, with the lease held. A crash after the commit leaves a
 * `signed` row, which the tracker broadcasts; the request never signs a second time.
 *
 * A nonce whose transaction was mined meanwhile is left to the tracker: the chain paid the payout
 * (its request ends `lost` when the payout completes), unless a reorganisation takes it out again.
 */
export async function signCancels(c: SendContext): Promise<number> {
  const asked = await c.store.db
    .selectFrom('hot_wallet_cancels')
    .selectAll()
    .where('chain_id', '=', c.hw.chain_id)
    .where('status', '=', 'requested')
    .orderBy('requested_at')
    .execute();
  let signed = 0;
  for (const req of asked) {
    try {
      if (await signCancel(c, req.payout_id, req.nonce)) signed++;
    } catch (err) {
      // One cancel's trouble is its payout's, as a tracked nonce's is (track.ts): the round goes on.
      if (roundsError(err)) throw err;
      payoutFailed(c, req.payout_id, Number(req.nonce), err);
    }
  }
  return signed;
}

/** One request: signed, stored, then broadcast; false when left for later (mined meanwhile: the tracker's). */
async function signCancel(c: SendContext, payoutId: string, nonce: number | string): Promise<boolean> {
  const rows = await c.store.db
    .selectFrom('hot_wallet_txs')
    .selectAll()
    .where('chain_id', '=', c.hw.chain_id)
    .where('nonce', '=', nonce)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const open = (r: TxRow) => r.status === 'signed' || r.status === 'broadcast' || r.status === 'replaced';
  if (rows.length === 0 || !rows.every(open)) return false;
  for (const r of rows) if ((await receiptOf(c.rpc, r.tx_hash as Hash)) !== null) return false;
  const row = await storeCancel(c, payoutId, rows[rows.length - 1]!);
  if (row === null) return false;
  await sendAgain(c, row, false);
  return true;
}

async function storeCancel(c: SendContext, payoutId: string, latest: TxRow): Promise<TxRow | null> {
  const { privateKeyToAccount } = await import('viem/accounts');
  const account = privateKeyToAccount(openKey(c.box, c.hw.key_sealed, c.hw.chain_id));
  const fees = bumpedFees(
    { maxFeePerGas: BigInt(latest.max_fee_per_gas), maxPriorityFeePerGas: BigInt(latest.max_priority_fee_per_gas) },
    await currentFees(c.rpc),
  );
  const nonce = Number(latest.nonce);
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: c.nodeChainId,
    nonce,
    to: c.hw.address as Hex,
    value: 0n,
    gas: TRANSFER_GAS,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  const row: TxRow = {
    id: newId('hwtx'),
    payout_id: payoutId,
    chain_id: c.hw.chain_id,
    nonce,
    raw,
    tx_hash: c.rpc.viem.keccak256(raw),
    max_fee_per_gas: fees.maxFeePerGas.toString(),
    max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
    gas_limit: TRANSFER_GAS.toString(),
    status: 'signed',
    block_hash: null,
    block_number: null,
    // The payout keeps the hash of the transaction that pays it: a cancel is never its txHash.
    marked_sent: 1,
    confirmations: 0,
    replaced_by: null,
    created_at: iso(c),
    broadcast_at: null,
    network_fee: null,
  };
  const stored = await c.store.writeTransaction(async (trx) => {
    await holdSenderLease(trx, c, c.hw.chain_id);
    const claimed = await trx
      .updateTable('hot_wallet_cancels')
      .set({ status: 'sent', tx_id: row.id })
      .where('payout_id', '=', payoutId)
      .where('status', '=', 'requested')
      .executeTakeFirst();
    // Signed by another round already (this one read a stale list): nothing stored, nothing sent.
    if ((claimed.numUpdatedRows ?? 0n) === 0n) return false;
    await trx
      .updateTable('hot_wallet_txs')
      .set({ status: 'replaced', replaced_by: row.id })
      .where('id', '=', latest.id)
      .execute();
    await trx.insertInto('hot_wallet_txs').values(row).execute();
    return true;
  });
  if (!stored) return null;
  await c.afterSign?.({ payoutId, txHash: row.tx_hash, nonce });
  return row;
}

/**
 * Ends a cancel request the chain decided (in the caller's transaction, once): `canceled` when
 * its replacement was mined to the depth, `lost` when the payout's own transaction was. Audited as
 * the hot wallet, beside the operator's request.
 */
export async function settleCancel(
  trx: Db,
  payoutId: string,
  outcome: Extract<HotWalletCancelStatus, 'canceled' | 'lost'>,
  at: string,
  txHash: string,
): Promise<void> {
  const open = await trx
    .selectFrom('hot_wallet_cancels')
    .select(['status', 'nonce'])
    .where('payout_id', '=', payoutId)
    .where('status', 'in', ['requested', 'sent'])
    .executeTakeFirst();
  if (open === undefined) return;
  await trx
    .updateTable('hot_wallet_cancels')
    .set({ status: outcome, resolved_at: at })
    .where('payout_id', '=', payoutId)
    .where('status', 'in', ['requested', 'sent'])
    .execute();
  await recordAudit(trx, HOT_WALLET_AUDIT, {
    action: `payout.cancel_by_replacement.${outcome}`,
    objectType: 'payout',
    objectId: payoutId,
    before: { cancel: open.status },
    after: { cancel: outcome, minedTxHash: txHash, nonce: Number(open.nonce) },
  });
}
