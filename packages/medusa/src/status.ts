/**
 * hostpay's checkout states in Medusa's words. Crypto has no separate capture: a settled checkout
 * is money received and confirmed, so it is authorized and captured at once.
 */

import type { CheckoutStatus } from '@hostpay/client';

/** Medusa's `PaymentSessionStatus` values. */
export type SessionStatus = 'authorized' | 'captured' | 'pending' | 'requires_more' | 'error' | 'canceled';

/** Medusa's `PaymentActions` values (what a webhook asks Medusa to do). */
export type WebhookAction =
  | 'authorized'
  | 'captured'
  | 'failed'
  | 'pending'
  | 'requires_more'
  | 'canceled'
  | 'not_supported';

const SESSION_STATUS: Record<CheckoutStatus, SessionStatus> = {
  // Waiting for the payer, for the rest of the money, or for confirmations.
  open: 'pending',
  underpaid: 'pending',
  processing: 'pending',
  // Paid and confirmed: authorized and captured in one.
  settled: 'captured',
  // Nothing more can be paid into this checkout: the cart needs a new payment session.
  expired: 'canceled',
  canceled: 'canceled',
  // Paid late, overpaid or otherwise odd: an operator decides; the shop waits.
  needs_review: 'requires_more',
  // An operator rejected it.
  invalid: 'error',
};

/** The Medusa session status of a checkout state; an unknown state (a newer server) is pending. */
export function sessionStatus(state: string): SessionStatus {
  return Object.hasOwn(SESSION_STATUS, state) ? SESSION_STATUS[state as CheckoutStatus] : 'pending';
}

/** The events that say something about a checkout's payment, and what Medusa should do on each. */
const EVENT_ACTIONS: Record<string, WebhookAction> = {
  'checkout.settled': 'captured',
  'checkout.underpaid': 'pending',
  'checkout.processing': 'pending',
  'checkout.needs_review': 'requires_more',
  'checkout.expired': 'canceled',
  'checkout.canceled': 'canceled',
  'checkout.invalid': 'failed',
};

/** What Medusa should do on an event type; anything else (payouts, wallets, pings) is not_supported. */
export function eventAction(type: string): WebhookAction {
  return Object.hasOwn(EVENT_ACTIONS, type) ? EVENT_ACTIONS[type]! : 'not_supported';
}
