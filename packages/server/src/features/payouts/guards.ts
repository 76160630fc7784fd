import type { PayoutActor } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import type { PayoutMove, PayoutStatus } from './states.js';

/** What a guard is asked about: a move the state table allows, about to be applied. */
export interface GuardedMove {
  payoutId: string;
  status: PayoutStatus;
  move: PayoutMove;
  by: PayoutActor;
}

/** Why a sender refuses the move (answered as 409 `PAYOUT_STATE_CONFLICT` with `details`). */
export interface GuardRefusal {
  message: string;
  details: Record<string, unknown>;
}

/**
 * A sender's veto over the moves merchants, operators and the sandbox make (never over its own,
 * which go through the sender port): it runs inside the move's transaction, after the payout row
 * is locked, so what it reads is what the move is decided on. The hot wallet refuses moves of a
 * payout whose signed transaction can still be mined: deciding such a payout by hand could pay it
 * twice (the chain pays the destination after the total was unfrozen).
 */
export type PayoutMoveGuard = (trx: Db, m: GuardedMove) => Promise<GuardRefusal | null>;

declare module '../../feature-kit/contributions.js' {
  interface ContributionPoints {
    /** A sender's veto over merchants' and operators' moves (payouts never imports a sender). */
    payoutGuards: PayoutMoveGuard;
  }
}
