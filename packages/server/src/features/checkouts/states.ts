/**
 * The checkout's states and the one table of moves between them (the contract's "States" table,
 * row for row). Every transition of a checkout goes through `transition`; anything the table does
 * not name is refused, so no code path can invent a move.
 */

import { CHECKOUT_STATUS_VALUES } from '@hostpay/protocol';

/** The contract's statuses (protocol/src/checkout-status.ts). */
export const CHECKOUT_STATUSES = CHECKOUT_STATUS_VALUES;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const CHECKOUT_REASONS = [
  'paid_partial',
  'paid_over',
  'payment_retracted',
  'canceled_by_merchant',
  'paid_late',
  'wrong_asset',
  'rejected_by_operator',
  'extra_payment',
] as const;
export type CheckoutReason = (typeof CHECKOUT_REASONS)[number];

/** What can happen to a checkout. */
export type CheckoutEvent =
  /** Part of one option's amountDue seen. */
  | { kind: 'partial_payment' }
  /** One option's received reached amountDue × (1 − tolerance). */
  | { kind: 'threshold_reached' }
  /** The payments making the total all have their confirmations; `overpaid`: received > amountDue. */
  | { kind: 'confirmed'; overpaid: boolean }
  /** A payment was retracted (reorg) and the total fell below the threshold; `anyLeft`: something is still received. */
  | { kind: 'payment_retracted'; anyLeft: boolean }
  | { kind: 'merchant_cancel' }
  | { kind: 'expire' }
  /** A payment arrived after the checkout expired or was canceled. */
  | { kind: 'late_payment' }
  /** A payment in an asset the checkout does not offer on that address. */
  | { kind: 'wrong_asset' }
  | { kind: 'operator_settle' }
  | { kind: 'operator_reject' };
export type CheckoutEventKind = CheckoutEvent['kind'];

interface Row {
  from: readonly CheckoutStatus[];
  event: CheckoutEventKind;
  /** The new status and reason; `keep` keeps the checkout's current reason (operator settle). */
  to: (event: CheckoutEvent) => { status: CheckoutStatus; reason: CheckoutReason | null | 'keep' };
}

/** The contract's table. Order does not matter: no (from, event) pair appears twice. */
export const TRANSITIONS: readonly Row[] = [
  { from: ['open'], event: 'partial_payment', to: () => ({ status: 'underpaid', reason: 'paid_partial' }) },
  { from: ['open', 'underpaid'], event: 'threshold_reached', to: () => ({ status: 'processing', reason: null }) },
  {
    from: ['processing'],
    event: 'confirmed',
    to: (e) => ({ status: 'settled', reason: e.kind === 'confirmed' && e.overpaid ? 'paid_over' : null }),
  },
  {
    from: ['processing'],
    event: 'payment_retracted',
    to: (e) => ({
      status: e.kind === 'payment_retracted' && e.anyLeft ? 'underpaid' : 'open',
      reason: 'payment_retracted',
    }),
  },
  { from: ['open'], event: 'merchant_cancel', to: () => ({ status: 'canceled', reason: 'canceled_by_merchant' }) },
  { from: ['open'], event: 'expire', to: () => ({ status: 'expired', reason: null }) },
  { from: ['underpaid'], event: 'expire', to: () => ({ status: 'needs_review', reason: 'paid_partial' }) },
  { from: ['expired', 'canceled'], event: 'late_payment', to: () => ({ status: 'needs_review', reason: 'paid_late' }) },
  {
    from: ['open', 'underpaid', 'processing'],
    event: 'wrong_asset',
    to: () => ({ status: 'needs_review', reason: 'wrong_asset' }),
  },
  { from: ['needs_review'], event: 'operator_settle', to: () => ({ status: 'settled', reason: 'keep' }) },
  {
    from: ['needs_review'],
    event: 'operator_reject',
    to: () => ({ status: 'invalid', reason: 'rejected_by_operator' }),
  },
];

/**
 * Lock order (PostgreSQL row locks; SQLite has one writer and no row locks). Every write
 * transaction takes the rows it locks in this order, and never goes back up the list:
 *
 * 1. the checkout row (`lockCheckout`, engine.ts), one checkout per transaction;
 * 2. the merchant's event counter (`event_sequences`: `Outbox.append` or `lockEventCounter`, events/outbox.ts);
 * 3. the merchant's receipt counter (`receipt_counters`: a settlement, receipt-numbers.ts);
 * 4. the wallet row (`lockWallet`: a settlement's credit, an operator's posting).
 *
 * A settlement takes the counter before the wallet even when it writes its event after the credit
 * (`lockEventCounter` in engine.ts `settle`, and in ledger/service.ts `postToLedger`): a checkout
 * paid in one step takes the counter for its `processing` event and then the wallet, so one that
 * was already `processing` must not take the wallet first (the two deadlocked: 40P01). A deadlock
 * or serialization failure that still happens is retried by the store (store/retry.ts).
 */

/** States nothing moves out of. */
export const FINAL_STATUSES: ReadonlySet<CheckoutStatus> = new Set(['settled', 'invalid']);

export interface Transition {
  from: CheckoutStatus;
  to: CheckoutStatus;
  reason: CheckoutReason | null;
}

/**
 * The move `event` causes from `status` (whose reason is `currentReason`), or undefined when the
 * table has none: the caller answers 409 (a merchant's cancel of a paid checkout), records the
 * payment without a move (a payment to a settled checkout), or ignores it (a second expiry).
 */
export function transition(
  status: CheckoutStatus,
  currentReason: CheckoutReason | null,
  event: CheckoutEvent,
): Transition | undefined {
  const row = TRANSITIONS.find((r) => r.event === event.kind && r.from.includes(status));
  if (row === undefined) return undefined;
  const next = row.to(event);
  return { from: status, to: next.status, reason: next.reason === 'keep' ? currentReason : next.reason };
}
