import { Decimal } from '@hostpay/protocol';
import type { Hex } from 'viem';
import { newId } from '../../store/ids.js';
import { balanceOf, broadcast, callOf, currentFees, isCancelTx, toBaseUnits, type Fees } from './chain-ops.js';
import { holdSenderLease, iso, payoutFailed, roundsError, type SendContext, type TxRow } from './context.js';
import { openKey } from './key.js';
import type { PayoutJob } from './port.js';

interface Unsigned {
  payoutId: string;
  nonce: number;
  to: Hex;
  value: bigint;
  data: Hex | undefined;
  gas: bigint;
  fees: Fees;
}

/**
 * Signs a transaction and commits it (status `signed`) before anything is broadcast, with the
 * lease held: after a crash the stored bytes are what goes out, never a second signature for the
 * payout. A new nonce moves the wallet's next nonce in the same transaction; a replacement
 * (`replaces`) keeps its nonce and marks the one it replaces.
 *
 * A new payout's transaction is stored only with the payout claimed in the same transaction
 * (`claimForSigning`: still `approved`, its row locked): a cancel, reject or fail committed since
 * the list was read makes it answer null — nothing stored, the nonce not taken, the signed bytes
 * dropped unsent. A replacement needs no claim: its payout's live transaction is already stored.
 */
export async function signAndStore(c: SendContext, u: Unsigned): Promise<TxRow | null>;
export async function signAndStore(c: SendContext, u: Unsigned, replaces: TxRow): Promise<TxRow>;
export async function signAndStore(c: SendContext, u: Unsigned, replaces?: TxRow): Promise<TxRow | null> {
  const { privateKeyToAccount } = await import('viem/accounts');
  const account = privateKeyToAccount(openKey(c.box, c.hw.key_sealed, c.hw.chain_id));
  const raw = await account.signTransaction({
    type: 'eip1559',
    chainId: c.nodeChainId,
    nonce: u.nonce,
    to: u.to,
    value: u.value,
    ...(u.data === undefined ? {} : { data: u.data }),
    gas: u.gas,
    maxFeePerGas: u.fees.maxFeePerGas,
    maxPriorityFeePerGas: u.fees.maxPriorityFeePerGas,
  });
  const row: TxRow = {
    id: newId('hwtx'),
    payout_id: u.payoutId,
    chain_id: c.hw.chain_id,
    nonce: u.nonce,
    raw,
    tx_hash: c.rpc.viem.keccak256(raw),
    max_fee_per_gas: u.fees.maxFeePerGas.toString(),
    max_priority_fee_per_gas: u.fees.maxPriorityFeePerGas.toString(),
    gas_limit: u.gas.toString(),
    status: 'signed',
    block_hash: null,
    block_number: null,
    marked_sent: 0,
    confirmations: 0,
    replaced_by: null,
    created_at: iso(c),
    broadcast_at: null,
    network_fee: null,
  };
  if (replaces === undefined) await c.beforeStore?.({ payoutId: u.payoutId, nonce: u.nonce });
  const stored = await c.store.writeTransaction(async (trx) => {
    if (replaces === undefined && !(await c.port!.claimForSigning(trx, u.payoutId))) return false;
    await holdSenderLease(trx, c, c.hw.chain_id);
    if (replaces === undefined) {
      // The nonce is taken exactly once: a sender that read a stale next nonce writes nothing.
      const moved = await trx
        .updateTable('hot_wallets')
        .set({ next_nonce: u.nonce + 1 })
        .where('chain_id', '=', c.hw.chain_id)
        .where((eb) =>
          c.hw.next_nonce === null ? eb('next_nonce', 'is', null) : eb('next_nonce', '=', c.hw.next_nonce),
        )
        .executeTakeFirst();
      if ((moved.numUpdatedRows ?? 0n) === 0n) throw new Error('the hot wallet nonce moved under this round');
    } else {
      await trx
        .updateTable('hot_wallet_txs')
        .set({ status: 'replaced', replaced_by: row.id })
        .where('id', '=', replaces.id)
        .execute();
    }
    await trx.insertInto('hot_wallet_txs').values(row).execute();
    return true;
  });
  if (!stored) return null;
  c.hw = { ...c.hw, next_nonce: replaces === undefined ? u.nonce + 1 : c.hw.next_nonce };
  await c.afterSign?.({ payoutId: u.payoutId, txHash: row.tx_hash, nonce: u.nonce });
  return row;
}

/** Broadcasts a stored transaction and records it; the payout is told once per transaction hash. */
export async function broadcastRow(c: SendContext, row: TxRow, again: boolean): Promise<void> {
  await broadcast(c.rpc, row.raw as Hex);
  if (again) c.metrics.rebroadcast.inc({ chain: c.hw.symbol });
  if (row.status === 'signed')
    await c.store.writeTransaction((trx) =>
      trx
        .updateTable('hot_wallet_txs')
        .set({ status: 'broadcast', broadcast_at: iso(c) })
        .where('id', '=', row.id)
        .where('status', '=', 'signed')
        .execute(),
    );
  row.status = row.status === 'signed' ? 'broadcast' : row.status;
  row.broadcast_at ??= iso(c);
  await markSentOnce(c, row);
}

/**
 * The payout learns the hash of its transaction: the first broadcast, a fee bump's, or the one of
 * them that was mined. `marked_sent` marks the one the payout knows now, so a restart does not
 * repeat it and a change is told once.
 */
export async function markSentOnce(
  c: SendContext,
  row: TxRow,
  replacement: 'fee bump' | 'mined' = 'fee bump',
  /**
   * Told even when flagged: the flag is written after the port's move, in another transaction, so
   * a crash between can leave it on a replaced hash the payout no longer has. The port's move is
   * idempotent (the same hash does nothing).
   */
  force = false,
): Promise<void> {
  if (c.port === undefined) return;
  if (row.marked_sent === 1 && !force) return;
  // A cancel by replacement (or its fee bump) pays nothing: the payout keeps its own transaction's hash.
  if (await isCancelTx(row.raw, c.hw.address)) return;
  // A payout already sent with another hash of this nonce takes this one as a replacement (the
  // payouts' `bump` move), the old hash kept on its timeline.
  await c.port.markSent(row.payout_id, { txHash: row.tx_hash, replacement }, 'system');
  if (row.marked_sent === 1) return;
  await c.store.writeTransaction(async (trx) => {
    await trx.updateTable('hot_wallet_txs').set({ marked_sent: 0 }).where('payout_id', '=', row.payout_id).execute();
    await trx.updateTable('hot_wallet_txs').set({ marked_sent: 1 }).where('id', '=', row.id).execute();
  });
  row.marked_sent = 1;
}

/**
 * New approved payouts: each gets the next nonce, is checked against the wallet's balances
 * (the asset, and the native coin for the gas at the fee offered), signed, stored, broadcast and
 * marked sent. A payout the wallet cannot pay stays approved with the reason (once per reason)
 * and counts in hostpay_hot_wallet_insufficient_funds.
 */
export async function sendApproved(c: SendContext): Promise<number> {
  if (c.port === undefined) return 0;
  const jobs = await c.port.approved(c.hw.chain_id, c.batch);
  const address = c.hw.address as Hex;
  let sent = 0;
  let short = 0;
  // What this round has promised already, so two payouts never count the same coins.
  const spent = new Map<string, bigint>();
  const spend = (k: string, v: bigint) => spent.set(k, (spent.get(k) ?? 0n) + v);
  for (const job of jobs) {
    const taken = await c.store.db
      .selectFrom('hot_wallet_txs')
      .select('id')
      .where('payout_id', '=', job.id)
      .executeTakeFirst();
    // Signed before (a crash, another sender): the tracker carries it on, never a second signature.
    if (taken !== undefined) continue;
    if (!ADDRESS.test(job.destination) || (job.contract !== null && !ADDRESS.test(job.contract))) {
      await hold(c, job, `the destination or token contract is not a 0x address of 40 hex digits: it cannot be sent`);
      continue;
    }
    const units = toBaseUnits(job.amount, job.decimals);
    if (units === null) {
      await hold(
        c,
        job,
        `the amount ${job.amount} has more decimals than ${job.asset} on ${job.chain} carries (${job.decimals}): it cannot be sent exactly`,
      );
      continue;
    }
    const call = callOf(job, units);
    const fees = await currentFees(c.rpc);
    const native = (await balanceOf(c.rpc, address, null)) - (spent.get('') ?? 0n);
    if (job.contract !== null) {
      const tokens = (await balanceOf(c.rpc, address, job.contract)) - (spent.get(job.contract) ?? 0n);
      if (tokens < units) {
        short++;
        await hold(
          c,
          job,
          `hot wallet ${c.hw.address} balance too low: ${fmt(tokens, job.decimals)} ${job.asset}, the payout needs ${job.amount}`,
        );
        continue;
      }
    }
    let gas: bigint;
    try {
      gas = await c.rpc.client.estimateGas({
        account: address,
        to: call.to,
        value: call.value,
        ...(call.data ? { data: call.data } : {}),
      });
    } catch (err) {
      if (job.contract === null && native < units) {
        short++;
        await hold(
          c,
          job,
          `hot wallet ${c.hw.address} balance too low: ${fmt(native, c.nativeDecimals)} ${c.nativeAsset ?? 'native coin'}, the payout needs ${job.amount} and gas`,
        );
        continue;
      }
      // The node says the call itself would fail (a token that refuses the transfer): that payout
      // waits with the reason, the others go on. Anything else (the node down) fails the round.
      const reverted = (err as { walk?: (fn: (e: unknown) => boolean) => unknown }).walk?.(
        (e) => (e as Error).name === 'ExecutionRevertedError',
      );
      if (!reverted) throw err;
      await hold(
        c,
        job,
        `the node says the transfer would revert: ${(reverted as Error & { shortMessage?: string }).shortMessage ?? 'execution reverted'}`,
      );
      continue;
    }
    const gasCost = gas * fees.maxFeePerGas;
    if (native < gasCost + call.value) {
      short++;
      const coin = c.nativeAsset ?? 'native coin';
      await hold(
        c,
        job,
        `hot wallet ${c.hw.address} balance too low: ${fmt(native, c.nativeDecimals)} ${coin}, the payout needs ${job.contract === null ? `${job.amount} ${coin} and ` : ''}up to ${fmt(gasCost, c.nativeDecimals)} ${coin} for gas`,
      );
      continue;
    }
    const nonce = await nextNonce(c);
    const row = await signAndStore(c, { payoutId: job.id, nonce, ...call, gas, fees });
    if (row === null) {
      // Canceled (or rejected, failed) since the list was read: its nonce goes to the next payout.
      c.log.warn(
        `payout ${job.id} is no longer approved: its signed transaction was dropped, nonce ${nonce} stays free`,
      );
      c.held.delete(job.id);
      continue;
    }
    try {
      await broadcastRow(c, row, false);
    } catch (err) {
      // Not broadcast, or the node's trouble: the round's (nothing is signed behind a gap).
      if (row.status === 'signed' || roundsError(err)) throw err;
      // Out, but the payout could not be told: its error; the tracker tells it next round.
      payoutFailed(c, job.id, nonce, err);
    }
    c.held.delete(job.id);
    spend('', gasCost + call.value);
    if (job.contract !== null) spend(job.contract, units);
    c.metrics.sent.inc({ chain: c.hw.symbol });
    sent++;
  }
  c.metrics.insufficient.set({ chain: c.hw.symbol }, short);
  return sent;
}

async function hold(c: SendContext, job: PayoutJob, reason: string): Promise<void> {
  c.metrics.held.inc({ chain: c.hw.symbol });
  if (c.held.get(job.id) === reason) return;
  try {
    await c.port!.holdWithReason(job.id, reason);
  } catch (err) {
    // The reason not shown is that payout's error; the others are still sent.
    if (roundsError(err)) throw err;
    return payoutFailed(c, job.id, null, err);
  }
  c.held.set(job.id, reason);
}

/**
 * The store's next nonce, or the node's count the first time. The node's count wins when it is
 * higher: a transaction sent from the same key by another tool took nonces the store never gave.
 */
async function nextNonce(c: SendContext): Promise<number> {
  const chainCount = await c.rpc.client.getTransactionCount({ address: c.hw.address as Hex, blockTag: 'pending' });
  const stored = c.hw.next_nonce === null ? 0 : Number(c.hw.next_nonce);
  return Math.max(stored, chainCount);
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const fmt = (v: bigint, decimals: number) => new Decimal(v.toString()).div(new Decimal(10).pow(decimals)).toFixed();
