import type { Hex } from 'viem';
import type { SecretBox } from '../../crypto/secret-box.js';
import { HostpayError } from '../../errors.js';
import type { Resolver } from '../../outbound/guard.js';
import type { Store } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { openRpc } from '../chain-watch/adapters/evm/rpc.js';
import { watchQuery } from '../chain-watch/config.js';
import { rpcOwner, scrubMessage } from '../chain-watch/node-url.js';
import { lockPayout } from '../payouts/queries.js';
import { broadcast } from './chain-ops.js';
import { nodeAnswer } from './forgotten.js';
import {
  actionsOf,
  chainState,
  liveRow,
  loadPayoutChain,
  payoutChainView,
  type PayoutChainFacts,
} from './payout-view.js';

export interface PayoutChainOpsOptions {
  store: Store;
  box: SecretBox;
  now: () => number;
  sandbox: boolean;
  resolve: Resolver;
  /** A cancel was asked for: the sender looks now. */
  changed: () => void;
  rpcTimeoutMs?: number;
}

const conflict = (f: PayoutChainFacts, message: string) =>
  new HostpayError('PAYOUT_STATE_CONFLICT', message, {
    status: f.payoutStatus,
    ...(f.rows.length === 0 ? {} : { transaction: chainState(liveRow(f.rows)!) }),
  });

/**
 * The operators' way out of a hot-wallet payout stuck in flight (docs/payouts.md, "When a
 * transaction is stuck"): what the node and the store know of its transaction, sending the stored
 * bytes again, and cancel by replacement. Each action is audited in the transaction that records it.
 */
export function payoutChainOps(opts: PayoutChainOpsOptions) {
  const { store } = opts;
  const at = () => new Date(opts.now()).toISOString();

  async function facts(payoutId: string): Promise<PayoutChainFacts> {
    const f = await loadPayoutChain(store.db, payoutId);
    if (f === undefined) throw new HostpayError('NOT_FOUND', `payout ${payoutId} does not exist`);
    return f;
  }

  return {
    async payoutChain(payoutId: string) {
      return payoutChainView(await facts(payoutId));
    },

    /**
     * Asks the sender to replace a sent (or approved and signed) payout's transaction (not mined) with a zero-value transfer
     * to the wallet itself at the same nonce and a higher fee. Recorded here; signed once by the
     * chain's sender (cancel.ts); the payout fails only once that is mined to the depth. Asking
     * again answers the same request.
     */
    async cancelByReplacement(payoutId: string, audit: AuditContext) {
      await store.writeTransaction(async (trx) => {
        const locked = await lockPayout(trx, payoutId, store.dialect);
        if (locked === undefined) throw new HostpayError('NOT_FOUND', `payout ${payoutId} does not exist`);
        const f = (await loadPayoutChain(trx, payoutId))!;
        if (f.cancel !== undefined) return;
        if (f.rows.length === 0)
          throw conflict(
            f,
            `payout ${payoutId} is ${f.payoutStatus} and the hot wallet signed nothing for it: ${f.payoutStatus === 'approved' || f.payoutStatus === 'pending_approval' ? `cancel it (POST /admin/v1/payouts/${payoutId}/cancel)` : 'there is no transaction to replace'}`,
          );
        const live = liveRow(f.rows)!;
        const state = chainState(live);
        if (!actionsOf(f, state).includes('cancel_by_replacement'))
          throw conflict(
            f,
            state === 'mined' || state === 'confirmed' || state === 'reverted'
              ? `payout ${payoutId}: its transaction ${live.tx_hash} is ${state === 'reverted' ? 'reverted' : `mined (block ${Number(live.block_number)})`}: no replacement can take nonce ${Number(live.nonce)} any more`
              : `payout ${payoutId} is ${f.payoutStatus}: only a sent (or approved and signed) payout whose transaction is not mined can be canceled by replacement`,
          );
        const now = at();
        await trx
          .insertInto('hot_wallet_cancels')
          .values({
            payout_id: payoutId,
            chain_id: locked.chain_id,
            nonce: live.nonce,
            status: 'requested',
            tx_id: null,
            requested_by: audit.operator,
            requested_at: now,
            resolved_at: null,
          })
          .execute();
        await recordAudit(trx, audit, {
          action: 'payout.cancel_by_replacement',
          objectType: 'payout',
          objectId: payoutId,
          before: { status: f.payoutStatus, txHash: live.tx_hash, nonce: Number(live.nonce), transaction: state },
          after: { cancel: 'requested', nonce: Number(live.nonce) },
        });
      });
      opts.changed();
      return payoutChainView(await facts(payoutId));
    },

    /**
     * Sends the stored bytes of the payout's latest transaction to the chain's node now: the same
     * transaction (nothing is signed), so any instance may. The node's refusal is kept (the
     * transaction stays forgotten, with the answer); a node that does not answer is 503.
     */
    async rebroadcast(payoutId: string, audit: AuditContext) {
      const f = await facts(payoutId);
      const live = liveRow(f.rows);
      if (live === undefined)
        throw conflict(
          f,
          `payout ${payoutId} is ${f.payoutStatus} and the hot wallet signed nothing for it: there is nothing to send`,
        );
      const state = chainState(live);
      if (!actionsOf(f, state).includes('rebroadcast'))
        throw conflict(
          f,
          `payout ${payoutId}: its transaction ${live.tx_hash} is ${state}: there is nothing to send again`,
        );
      const answer = await send(live.chain_id, live.raw);
      const now = at();
      await store.writeTransaction(async (trx) => {
        await trx
          .updateTable('hot_wallet_txs')
          .set(
            answer === null
              ? {
                  forgotten_at: null,
                  node_error: null,
                  ...(live.status === 'signed' ? { status: 'broadcast' as const, broadcast_at: now } : {}),
                }
              : { forgotten_at: live.forgotten_at ?? now, node_error: answer },
          )
          .where('id', '=', live.id)
          .where('status', '=', live.status)
          .execute();
        await recordAudit(trx, audit, {
          action: 'payout.rebroadcast',
          objectType: 'payout',
          objectId: payoutId,
          before: { txHash: live.tx_hash, nonce: Number(live.nonce), transaction: state },
          after: { txHash: live.tx_hash, accepted: answer === null, nodeAnswer: answer },
        });
      });
      return payoutChainView(await facts(payoutId));
    },
  };

  /** null: the node took the bytes (or already had them); else its refusal. */
  async function send(chainId: string, raw: string): Promise<string | null> {
    const w = await watchQuery(store.db)
      .where('w.chain_id', '=', chainId)
      .where('w.adapter_kind', '=', 'evm-rpc')
      .executeTakeFirst();
    if (w === undefined) throw new HostpayError('UNAVAILABLE', 'the chain has no watch: there is no node to send to');
    const url = opts.box.open(w.rpc_url_sealed, rpcOwner(w.chain_id)).toString('utf8');
    try {
      const rpc = await openRpc(
        url,
        { sandbox: opts.sandbox, allowPrivate: w.allow_private_rpc === 1, resolve: opts.resolve },
        opts.rpcTimeoutMs ?? 15_000,
      );
      try {
        await broadcast(rpc, raw as Hex);
        return null;
      } finally {
        rpc.close();
      }
    } catch (err) {
      const refused = nodeAnswer(err);
      if (refused !== null) return refused;
      throw new HostpayError('UNAVAILABLE', `the node did not answer: ${scrubMessage((err as Error).message, url)}`);
    }
  }
}

export type PayoutChainOps = ReturnType<typeof payoutChainOps>;
