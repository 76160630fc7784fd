import { decimalText } from '@hostpay/protocol';
import type { Caches } from '../../cache/caches.js';
import { HostpayError } from '../../errors.js';
import type { Db, Store } from '../../store/store.js';
import type { Outbox } from '../events/outbox.js';
import { PayoutMetrics } from './metrics.js';
import { movePayout, type MoveContext, type MoveRequest } from './moves.js';
import { lockPayout, payoutsWithNames } from './queries.js';

/**
 * The narrow port payout senders work through (the manual sender's operator routes, the EVM hot
 * wallet, chain verification): they never read or write the payouts' tables themselves. Each
 * method is one write transaction and idempotent: marking twice does nothing the second time.
 */
export interface PayoutSenderPort {
  /** approved payouts on a chain, oldest first, that a sender should send */
  approved(chainId: string, limit: number): Promise<PayoutJob[]>;
  /**
   * The one call that runs in the sender's own write transaction (`trx`, the one that stores the
   * signed transaction): locks the payout row and answers whether it is still `approved`. The list
   * from `approved` is older than the signature, and a cancel or an operator's move committed in
   * between would otherwise be paid anyway (the total unfrozen, the bytes broadcast: paid twice).
   * Claimed, the payout stays `approved` until the broadcast (`markSent`), but the stored
   * transaction commits with the claim, so the senders' guards refuse any later move by hand.
   * Not claimed: the sender stores nothing (nor takes the nonce) and moves on.
   */
  claimForSigning(trx: Db, payoutId: string): Promise<boolean>;
  /**
   * The payout's transaction hash: `approved` → `sent`; a second call with the same hash does
   * nothing. By `system` while the payout is `sent` with another hash: a replacement at the same
   * nonce (`replacement`: a fee bump's hash, or the competing one the chain mined), the `bump`
   * move — the payout follows the new hash, its timeline names the replaced one.
   */
  markSent(
    payoutId: string,
    p: { txHash: string; networkFee?: string; replacement?: 'fee bump' | 'mined' },
    by: 'system' | 'operator',
  ): Promise<void>;
  markConfirmations(payoutId: string, confirmations: number): Promise<void>;
  markCompleted(payoutId: string, p: { networkFee?: string }): Promise<void>;
  markFailed(payoutId: string, reason: string, by: 'system' | 'operator'): Promise<void>;
  /** a confirmed tx replaced by a reorganisation: back to sent, confirmations restart */
  markReorged(payoutId: string): Promise<void>;
  /** stays approved, with a reason shown to merchant and operator (e.g. hot wallet out of gas) */
  holdWithReason(payoutId: string, reason: string): Promise<void>;
  /** sent payouts on a chain, oldest first, with their tx hash: what a verifier watches (an addition to the brief's port) */
  sent(chainId: string, limit: number): Promise<SentPayoutJob[]>;
}

export interface PayoutJob {
  id: string;
  merchantId: string;
  chainId: string;
  chain: string;
  network: string;
  asset: string;
  assetId: string;
  contract: string | null;
  decimals: number;
  amount: string;
  destination: string;
}

export interface SentPayoutJob extends PayoutJob {
  txHash: string;
  confirmations: number;
  /** When the payout last changed (sent, a reorganisation, a confirmation count): ISO time. */
  updatedAt: string;
}

export function payoutSenderPort(
  store: Store,
  caches: Caches,
  outbox: Outbox,
  now: () => number = Date.now,
  metrics: PayoutMetrics = new PayoutMetrics(),
): PayoutSenderPort {
  const db = store.db;
  const context = (): MoveContext => ({ dialect: store.dialect, at: new Date(now()).toISOString(), outbox });

  async function move(id: string, req: MoveRequest): Promise<void> {
    const result = await store.writeTransaction((trx) => movePayout(trx, context(), id, { ...req, idempotent: true }));
    metrics.movedBy(result);
    if (result.walletsOf !== null) await caches.invalidate({ kind: 'wallets', merchantId: result.walletsOf });
  }

  async function jobs(status: 'approved' | 'sent', chainId: string, limit: number) {
    return payoutsWithNames(db)
      .where('p.status', '=', status)
      .where('p.chain_id', '=', chainId)
      .orderBy('p.created_at')
      .orderBy('p.id')
      .limit(Math.max(1, Math.min(limit, 1000)))
      .execute();
  }

  const job = (r: Awaited<ReturnType<typeof jobs>>[number]): PayoutJob => ({
    id: r.id,
    merchantId: r.merchant_id,
    chainId: r.chain_id,
    chain: r.chain_symbol,
    network: r.network_name,
    asset: r.asset_symbol,
    assetId: r.asset_id,
    contract: r.token_contract,
    decimals: r.asset_decimals,
    amount: decimalText(r.amount),
    destination: r.destination,
  });

  return {
    approved: async (chainId, limit) => (await jobs('approved', chainId, limit)).map(job),

    // The payout row first, as every payout move takes it (states.ts, PAYOUT_LOCK_ORDER): a cancel
    // waiting on it reads the stored transaction once this commits, and its guard refuses it.
    claimForSigning: async (trx, id) => (await lockPayout(trx, id, store.dialect))?.status === 'approved',

    sent: async (chainId, limit) =>
      (await jobs('sent', chainId, limit)).map((r) => ({
        ...job(r),
        txHash: r.tx_hash ?? '',
        confirmations: r.confirmations,
        updatedAt: r.updated_at,
      })),

    markSent: (id, p, by) =>
      move(id, {
        move: 'send',
        by,
        txHash: p.txHash,
        ...(p.networkFee === undefined ? {} : { networkFee: p.networkFee }),
        ...(p.replacement === undefined ? {} : { replacement: p.replacement }),
      }),

    async markConfirmations(id, confirmations) {
      await store.writeTransaction(async (trx) => {
        const row = await lockPayout(trx, id, store.dialect);
        if (row === undefined) throw new HostpayError('NOT_FOUND', `payout ${id} does not exist`);
        // Only a sent payout counts confirmations; a late report for a finished one changes nothing.
        if (row.status !== 'sent' || row.confirmations === confirmations) return;
        await trx
          .updateTable('payouts')
          .set({ confirmations, updated_at: context().at })
          .where('id', '=', id)
          .execute();
      });
    },

    markCompleted: (id, p) =>
      move(id, { move: 'complete', by: 'system', ...(p.networkFee === undefined ? {} : { networkFee: p.networkFee }) }),

    markFailed: (id, reason, by) => move(id, { move: 'fail', by, reason }),

    markReorged: (id) => move(id, { move: 'reorg', by: 'system' }),

    async holdWithReason(id, reason) {
      await store.writeTransaction(async (trx) => {
        const row = await lockPayout(trx, id, store.dialect);
        if (row === undefined) throw new HostpayError('NOT_FOUND', `payout ${id} does not exist`);
        // Only an approved payout waits for its sender; a second hold with the same reason is a no-op.
        if (row.status !== 'approved' || row.reason === reason) return;
        await trx.updateTable('payouts').set({ reason, updated_at: context().at }).where('id', '=', id).execute();
      });
    },
  };
}
