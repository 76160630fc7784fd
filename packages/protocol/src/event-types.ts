/**
 * The event types of the merchant event stream and webhooks (spec/checkout.md, "Events and
 * webhooks"; spec/payouts.md). Its own module, without TypeBox or node:crypto, so the dashboard's
 * browser bundle takes only this list.
 */
export const EVENT_TYPE_VALUES = [
  'checkout.created',
  'checkout.underpaid',
  'checkout.processing',
  'checkout.settled',
  'checkout.expired',
  'checkout.canceled',
  'checkout.needs_review',
  'checkout.invalid',
  'wallet.balance_changed',
  'webhook_endpoint.disabled',
  'test.ping',
  'payout.requested',
  'payout.approved',
  'payout.rejected',
  'payout.canceled',
  'payout.sent',
  'payout.completed',
  'payout.failed',
  'payout_destination.added',
  'payout_destination.activated',
  'payout_destination.revoked',
  'refund.requested',
  'payment_link.created',
  'payment_link.updated',
  'invoice.finalized',
  'invoice.partially_paid',
  'invoice.paid',
  'invoice.voided',
  'invoice.marked_uncollectible',
] as const;

export type EventType = (typeof EVENT_TYPE_VALUES)[number];
