import type { Db } from '../../store/store.js';
import type { HotWalletCancelTable, HotWalletTxTable } from './tables.js';
import { isCancelTx } from './chain-ops.js';

/**
 * Where a payout's hot-wallet transaction stands, as operators need it to decide: `signed` (stored,
 * not broadcast yet), `in_flight` (the node holds it), `forgotten` (the node had no trace of it —
 * not pooled, not mined, its nonce unused — and refused it again), `mined` (counted to the
 * depth), `confirmed`, `reverted`.
 */
export type ChainState = 'signed' | 'in_flight' | 'forgotten' | 'mined' | 'confirmed' | 'reverted';
export type PayoutChainAction = 'rebroadcast' | 'cancel_by_replacement';

const iso = (v: string | null | undefined) => (v === null || v === undefined ? null : new Date(v).toISOString());

export interface PayoutChainFacts {
  payoutId: string;
  payoutStatus: string;
  chain: string;
  wallet: string;
  rows: HotWalletTxTable[];
  cancel: HotWalletCancelTable | undefined;
}

/** The payout, its hot wallet and every transaction signed for it (oldest first), or undefined without any. */
export async function loadPayoutChain(db: Db, payoutId: string): Promise<PayoutChainFacts | undefined> {
  const payout = await db
    .selectFrom('payouts as p')
    .innerJoin('chains as c', 'c.id', 'p.chain_id')
    .leftJoin('hot_wallets as h', 'h.chain_id', 'p.chain_id')
    .select(['p.id', 'p.status', 'c.symbol', 'h.address'])
    .where('p.id', '=', payoutId)
    .executeTakeFirst();
  if (payout === undefined) return undefined;
  const rows = await db
    .selectFrom('hot_wallet_txs')
    .selectAll()
    .where('payout_id', '=', payoutId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const cancel = await db
    .selectFrom('hot_wallet_cancels')
    .selectAll()
    .where('payout_id', '=', payoutId)
    .executeTakeFirst();
  return {
    payoutId,
    payoutStatus: payout.status,
    chain: payout.symbol,
    wallet: payout.address ?? '',
    rows,
    cancel,
  };
}

/** The transaction that decides the payout: the one mined (or reverted), else the latest signed. */
export function liveRow(rows: readonly HotWalletTxTable[]): HotWalletTxTable | undefined {
  return (
    rows.find((r) => r.status === 'confirmed' || r.status === 'mined' || r.status === 'failed') ?? rows[rows.length - 1]
  );
}

export function chainState(r: HotWalletTxTable): ChainState {
  if (r.status === 'confirmed') return 'confirmed';
  if (r.status === 'mined') return 'mined';
  if (r.status === 'failed') return 'reverted';
  if ((r.forgotten_at ?? null) !== null) return 'forgotten';
  return r.status === 'signed' ? 'signed' : 'in_flight';
}

/** What an operator may do now: send the stored bytes again; replace the payment with a cancel. */
export function actionsOf(f: PayoutChainFacts, state: ChainState): PayoutChainAction[] {
  const open = state === 'signed' || state === 'in_flight' || state === 'forgotten';
  if (!open) return [];
  // An approved payout with a stored transaction too: signed, never broadcast (or refused), it is
  // held by the guard (guard.ts) and only a replacement at its nonce frees its total.
  const cancelable = (f.payoutStatus === 'sent' || f.payoutStatus === 'approved') && f.cancel === undefined;
  return cancelable ? ['rebroadcast', 'cancel_by_replacement'] : ['rebroadcast'];
}

function advice(f: PayoutChainFacts, live: HotWalletTxTable, state: ChainState, liveIsCancel: boolean): string {
  const c = f.cancel;
  if (c?.status === 'canceled')
    return 'Canceled by replacement: the zero-value transaction took the nonce; the payout failed and its total was unfrozen.';
  if (c?.status === 'lost')
    return "The payout's own transaction was mined before the cancel: the payout completed and the cancel was lost.";
  const decided = state === 'mined' || state === 'confirmed';
  const cancelNote =
    c === undefined
      ? ''
      : decided && liveIsCancel
        ? " This is the cancel by replacement: the payout fails once it is mined to the chain's depth."
        : decided
          ? " The payout's own transaction was mined first: the cancel ends lost at the depth (unless a reorganisation takes it out)."
          : c.status === 'requested'
            ? ' A cancel by replacement was asked for: the sender signs it at its next round.'
            : " A cancel by replacement is in flight: the payout fails once it is mined to the chain's depth, or completes if its own transaction is mined instead.";
  switch (state) {
    case 'forgotten':
      return `The node has no trace of transaction ${live.tx_hash} (not in its pool, not mined, nonce ${Number(live.nonce)} unused) and refused it again: "${live.node_error ?? ''}". Fix the cause (e.g. fund the hot wallet for gas) and rebroadcast, or cancel by replacement.${cancelNote}`;
    case 'signed':
      return `Stored, not broadcast yet: the sender broadcasts it at its next round (or rebroadcast now).${cancelNote}`;
    case 'in_flight':
      return `Waiting to be mined at nonce ${Number(live.nonce)}; the sender replaces it with a higher fee if it waits too long. Cancel by replacement if it must not pay.${cancelNote}`;
    case 'mined':
      return `Mined in block ${Number(live.block_number)}: the chain watcher counts its confirmations to the chain's depth.${cancelNote}`;
    case 'confirmed':
      return 'Mined to the chain’s depth.';
    case 'reverted':
      return 'Reverted on chain: the payout failed, nothing was paid.';
  }
}

/** The answer of GET /admin/v1/payouts/{id}/hot-wallet (schemas in payout-routes.ts). */
export async function payoutChainView(f: PayoutChainFacts) {
  const live = liveRow(f.rows);
  if (live === undefined) return unsignedView(f);
  return signedView(f, live);
}

/** A payout the hot wallet never signed (approved and waiting, a manual sender's, decided before): nothing to follow. */
function unsignedView(f: PayoutChainFacts) {
  return {
    payoutId: f.payoutId,
    payoutStatus: f.payoutStatus,
    chain: f.chain,
    wallet: f.wallet,
    nonce: null,
    txHash: null,
    state: null,
    forgotten: null,
    cancel: null,
    actions: [] as PayoutChainAction[],
    advice: `The hot wallet has signed no transaction for this payout (${f.payoutStatus}): ${f.payoutStatus === 'approved' ? 'it is sent at the sender’s next round, or can still be canceled' : 'there is nothing of the hot wallet to follow'}.`,
    transactions: [],
  };
}

async function signedView(f: PayoutChainFacts, live: HotWalletTxTable) {
  const state = chainState(live);
  const transactions = [];
  for (const r of f.rows)
    transactions.push({
      txHash: r.tx_hash,
      kind: (f.wallet !== '' && (await isCancelTx(r.raw, f.wallet)) ? 'cancel' : 'payment') as 'cancel' | 'payment',
      status: r.status,
      nonce: Number(r.nonce),
      maxFeePerGas: r.max_fee_per_gas,
      maxPriorityFeePerGas: r.max_priority_fee_per_gas,
      blockNumber: r.block_number === null ? null : Number(r.block_number),
      confirmations: r.confirmations,
      createdAt: new Date(r.created_at).toISOString(),
      broadcastAt: iso(r.broadcast_at),
    });
  return {
    payoutId: f.payoutId,
    payoutStatus: f.payoutStatus,
    chain: f.chain,
    wallet: f.wallet,
    nonce: Number(live.nonce),
    txHash: live.tx_hash,
    state,
    forgotten: state === 'forgotten' ? { since: iso(live.forgotten_at)!, nodeAnswer: live.node_error ?? '' } : null,
    cancel:
      f.cancel === undefined
        ? null
        : {
            status: f.cancel.status,
            requestedBy: f.cancel.requested_by,
            requestedAt: new Date(f.cancel.requested_at).toISOString(),
            resolvedAt: iso(f.cancel.resolved_at),
            // The latest cancel signed (the sender may have bumped its fee too).
            txHash: transactions.filter((t) => t.kind === 'cancel').at(-1)?.txHash ?? null,
          },
    actions: actionsOf(f, state),
    advice: advice(f, live, state, transactions.find((t) => t.txHash === live.tx_hash)?.kind === 'cancel'),
    transactions,
  };
}
export type PayoutChainView = ReturnType<typeof unsignedView> | Awaited<ReturnType<typeof signedView>>;
