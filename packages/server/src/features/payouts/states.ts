/**
 * The payout's states and the one table of moves between them (spec/payouts.md, "States", row for
 * row), with what each move does to the money and who may make it. Every change of a payout goes
 * through `payoutTransition`; anything the table does not name is refused (409).
 */

import { PAYOUT_STATUS_VALUES, type PayoutActor } from '@hostpay/protocol';
import type { EventType } from '../events/outbox.js';

export const PAYOUT_STATUSES = PAYOUT_STATUS_VALUES;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export type PayoutMove =
  /** Requested; total ≤ the auto-approve limit and the destination active. */
  | 'request_approved'
  /** Requested otherwise. */
  | 'request'
  | 'approve'
  | 'reject'
  | 'cancel'
  /** The sender broadcast it, or the operator reported a tx hash. */
  | 'send'
  /**
   * The sender's transaction for a sent payout changed at the same nonce: a fee bump's hash, or
   * the competing one of them the chain mined. The payout follows the new hash; the old one is
   * named on the timeline as replaced. Only the sender makes it (`markSent` with another hash).
   */
  | 'bump'
  /** The transaction has the chain's required confirmations (or the operator confirms it). */
  | 'complete'
  /** The transaction failed, was dropped, or the operator marks it failed. */
  | 'fail'
  /** A confirmed transaction was replaced by a reorganisation: confirmations restart. */
  | 'reorg';

/**
 * What a move does to the wallet: `freeze` the total (request), `unfreeze` what the payout holds
 * (rejected, canceled, failed), `debit` (completed: unfreeze what it holds, debit the total).
 */
export type MoneyEffect = 'freeze' | 'unfreeze' | 'debit' | null;

export interface PayoutRow {
  /** null: the payout does not exist yet (a request). */
  from: readonly (PayoutStatus | null)[];
  move: PayoutMove;
  to: PayoutStatus;
  by: readonly PayoutActor[];
  money: MoneyEffect;
  /** The events the move writes, in order (beside `wallet.balance_changed` for each posting). */
  events: readonly EventType[];
}

/** The contract's table. No (from, move) pair appears twice. */
export const PAYOUT_TRANSITIONS: readonly PayoutRow[] = [
  {
    from: [null],
    move: 'request_approved',
    to: 'approved',
    by: ['merchant', 'system'],
    money: 'freeze',
    events: ['payout.requested', 'payout.approved'],
  },
  {
    from: [null],
    move: 'request',
    to: 'pending_approval',
    by: ['merchant', 'system'],
    money: 'freeze',
    events: ['payout.requested'],
  },
  {
    from: ['pending_approval'],
    move: 'approve',
    to: 'approved',
    by: ['operator'],
    money: null,
    events: ['payout.approved'],
  },
  {
    from: ['pending_approval'],
    move: 'reject',
    to: 'rejected',
    by: ['operator'],
    money: 'unfreeze',
    events: ['payout.rejected'],
  },
  {
    from: ['pending_approval', 'approved'],
    move: 'cancel',
    to: 'canceled',
    by: ['merchant', 'operator'],
    money: 'unfreeze',
    events: ['payout.canceled'],
  },
  { from: ['approved'], move: 'send', to: 'sent', by: ['operator', 'system'], money: null, events: ['payout.sent'] },
  { from: ['sent'], move: 'bump', to: 'sent', by: ['system'], money: null, events: ['payout.sent'] },
  {
    from: ['sent'],
    move: 'complete',
    to: 'completed',
    by: ['operator', 'system'],
    money: 'debit',
    events: ['payout.completed'],
  },
  {
    from: ['sent'],
    move: 'fail',
    to: 'failed',
    by: ['operator', 'system'],
    money: 'unfreeze',
    events: ['payout.failed'],
  },
  {
    // A payout signed by the hot wallet but never sent (its broadcast refused), canceled by
    // replacement: the zero-value transaction took its nonce. Only the sender, once mined.
    from: ['approved'],
    move: 'fail',
    to: 'failed',
    by: ['system'],
    money: 'unfreeze',
    events: ['payout.failed'],
  },
  { from: ['sent'], move: 'reorg', to: 'sent', by: ['system'], money: null, events: ['payout.sent'] },
];

/** States nothing moves out of. */
export const FINAL_PAYOUT_STATUSES: ReadonlySet<PayoutStatus> = new Set([
  'completed',
  'rejected',
  'canceled',
  'failed',
]);

/**
 * The row for `move` from `status` by `by`, or undefined when the table has none (the caller
 * answers 409, or does nothing when the move already happened: the sender port's idempotency).
 */
export function payoutTransition(
  status: PayoutStatus | null,
  move: PayoutMove,
  by: PayoutActor,
): PayoutRow | undefined {
  return PAYOUT_TRANSITIONS.find((r) => r.move === move && r.from.includes(status) && r.by.includes(by));
}

/**
 * Lock order (PostgreSQL), the checkouts' order (features/checkouts/states.ts) with the payout row
 * in the checkout's place: 1. the payout row (`lockPayout`), 2. the merchant's event counter
 * (`lockEventCounter`), 3. the wallet (`postInTransaction`). A request has no payout row yet and
 * starts at 2; holding the counter also serialises one merchant's requests, so its rolling 24 h
 * limit is read and kept by one request at a time, across instances.
 */
export const PAYOUT_LOCK_ORDER = ['payout', 'event counter', 'wallet'] as const;
