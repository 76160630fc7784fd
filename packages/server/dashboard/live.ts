import { EVENT_TYPE_VALUES } from '@hostpay/protocol/event-types';
import { CHANGED } from './api.js';

/** The event types that change what the dashboard shows: all but an endpoint's and the test pings. */
const TYPES = EVENT_TYPE_VALUES.filter((t) => t !== 'test.ping' && t !== 'webhook_endpoint.disabled');

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
