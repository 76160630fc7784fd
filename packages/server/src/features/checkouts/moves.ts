import type { Decimal } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import type { CheckoutReason, CheckoutStatus } from './states.js';
import type { LoadedCheckout } from './queries.js';

/** What the operator decided when settling a checkout in review (the engine's input). */
export interface OperatorSettlement {
  assetId: string;
  chainId: string;
  /** Credited to the merchant's wallet, in the asset (the fee already withheld). */
  amount: Decimal;
}

/** One transition of one checkout, as the features that follow checkouts see it. */
export interface CheckoutMove {
  /** The checkout after the move: its row (status, origin columns), options, payments and timeline. */
  checkout: LoadedCheckout;
  to: CheckoutStatus;
  reason: CheckoutReason | null;
  /** ISO time of the move. */
  at: string;
  /** Set when an operator settled it from review: what they decided to credit. */
  settlement?: OperatorSettlement | undefined;
}

/**
 * Work that commits with every checkout transition, inside the engine's write transaction, after
 * the checkout's own row, timeline entry and event (payment links counting uses, invoices adding
 * what a settled checkout paid). A throw rolls the whole change back, so a handler must only fail
 * where the transition itself must not happen.
 */
export type CheckoutMoveHandler = (trx: Db, move: CheckoutMove) => Promise<void>;

declare module '../../feature-kit/contributions.js' {
  interface ContributionPoints {
    /** Work that commits with every checkout transition (checkouts/moves.ts). */
    checkoutMoves: CheckoutMoveHandler;
  }
}
