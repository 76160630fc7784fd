import type { PayoutMoveGuard } from '../payouts/guards.js';
import { OPEN_STATUSES } from './service.js';

/**
 * Transactions of a payout that have moved or can still move its money: in flight (signed,
 * broadcast, mined and counted — a reorganisation can put a mined one back in flight) or
 * confirmed. A reverted one (`failed`) fails its payout by itself; a `replaced` one lost its nonce.
 */
const LIVE = [...OPEN_STATUSES, 'confirmed'] as const;

/**
 * The hot wallet's veto over merchants', operators' and sandbox moves (cancel, fail, complete, a
 * hash reported by hand) of a payout it holds a live transaction for. The signed bytes are out
 * (or will be, after a crash): whatever the payout says, the chain may still mine them. Failing or
 * canceling it then would unfreeze a total the chain pays anyway — the payout paid twice — so the
 * chain decides: mined to the depth → completed, reverted → failed, both by the sender.
 */
export const hotWalletGuard: PayoutMoveGuard = async (trx, m) => {
  const live = await trx
    .selectFrom('hot_wallet_txs')
    .select(['tx_hash', 'status', 'nonce'])
    .where('payout_id', '=', m.payoutId)
    .where('status', 'in', [...LIVE])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (live === undefined) return null;
  return {
    message: `payout ${m.payoutId} was signed by the hot wallet (transaction ${live.tx_hash}, nonce ${Number(live.nonce)}, ${live.status}), which the chain may still mine: it completes when mined to the chain's depth, or fails if it reverts; ${m.move} by hand could pay it twice`,
    details: { sender: 'evm-hot-wallet', txHash: live.tx_hash, transaction: live.status },
  };
};
