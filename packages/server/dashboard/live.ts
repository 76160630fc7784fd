import { CHANGED } from './api.js';

/** The event types that change what the dashboard shows (protocol EVENT_TYPE_VALUES, minus test pings). */
const TYPES = [
  'checkout.created',
  'checkout.underpaid',
  'checkout.processing',
  'checkout.settled',
  'checkout.expired',
  'checkout.canceled',
  'checkout.needs_review',
  'checkout.invalid',
  'wallet.balance_changed',
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
];

/**
 * Live updates: the merchant's event stream (Server-Sent Events, with the session cookie) tells
 * the page when a checkout or a payout changed, and every list and detail on screen loads again
 * (ui-kit's useAsync listens for CHANGED). The browser reconnects by itself, resuming after the
 * last event id; a stream that cannot open (a role without events:read) is left closed.
 */
export function followEvents(): () => void {
  if (typeof EventSource === 'undefined') return () => undefined;
  const source = new EventSource('/api/v1/cp/events/stream', { withCredentials: true });
  const changed = () => window.dispatchEvent(new Event(CHANGED));
  for (const t of TYPES) source.addEventListener(t, changed);
  return () => source.close();
}
