import { verifyWebhookEvent, WebhookVerificationError } from '@hostpay/client';
import { plainDecimal } from './amounts.js';
import { eventAction, type WebhookAction } from './status.js';

/** What Medusa's webhook route hands the provider (`ProviderWebhookPayload['payload']`). */
export interface WebhookPayload {
  data?: unknown;
  /** The body exactly as received: a Buffer, a string, or a Buffer that went through JSON. */
  rawData?: unknown;
  headers?: unknown;
}

/** The provider's answer before Medusa's BigNumber is put on it: `amount` is exact decimal text. */
export interface WebhookDecision {
  action: WebhookAction;
  data?: { session_id: string; amount: string };
  /** Why nothing is done, for the log: refused deliveries and events that name no session. */
  ignored?: { reason: string; message: string };
  /** The verified event's id and type, when it was authentic. */
  event?: { id: string; type: string; checkoutId?: string };
}

export interface WebhookCheck {
  /** The endpoint's signing secret (`whsec_…`). */
  secret: string;
  /** Accepted |now − webhook-timestamp| in seconds (default 300, Standard Webhooks' own). */
  tolerance?: number;
  /** The clock, ms (tests). */
  now?: number;
}

/** Medusa's session ids: an event whose orderId is not one was not made by this provider. */
const SESSION_ID = /^payses_[0-9A-Za-z]+$/;

/** The raw body as text: exactly the bytes received, or undefined when there are none to verify. */
export function rawText(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (raw instanceof Uint8Array) return new TextDecoder().decode(raw);
  // A Buffer that crossed Medusa's event bus as JSON: { type: 'Buffer', data: [bytes] }.
  if (raw !== null && typeof raw === 'object') {
    const r = raw as { type?: unknown; data?: unknown };
    if (r.type === 'Buffer' && Array.isArray(r.data))
      return new TextDecoder().decode(Uint8Array.from(r.data as number[]));
  }
  return undefined;
}

function headerRecord(headers: unknown): Record<string, string | string[] | undefined> {
  if (headers === null || typeof headers !== 'object') return {};
  const out: Record<string, string | string[] | undefined> = {};
  for (const [k, v] of Object.entries(headers as Record<string, unknown>))
    if (typeof v === 'string' || Array.isArray(v)) out[k] = v as string | string[];
  return out;
}

/**
 * Verifies a delivery (Standard Webhooks: HMAC-SHA256 over id, timestamp and the raw body,
 * compared in constant time, the timestamp within the tolerance) and says what Medusa should do.
 * A delivery that fails verification, or an event that names no Medusa payment session, is
 * `not_supported` with the reason: Medusa then does nothing.
 */
export async function decideWebhook(payload: WebhookPayload, check: WebhookCheck): Promise<WebhookDecision> {
  const raw = rawText(payload.rawData);
  if (raw === undefined)
    return {
      action: 'not_supported',
      ignored: { reason: 'no_raw_body', message: 'the raw body is needed to verify the signature, and none came' },
    };
  let event: Awaited<ReturnType<typeof verifyWebhookEvent>>;
  try {
    const options = { tolerance: check.tolerance ?? 300, ...(check.now === undefined ? {} : { now: check.now }) };
    event = await verifyWebhookEvent(raw, headerRecord(payload.headers), check.secret, options);
  } catch (err) {
    if (err instanceof WebhookVerificationError)
      return { action: 'not_supported', ignored: { reason: err.reason, message: err.message } };
    return { action: 'not_supported', ignored: { reason: 'invalid_body', message: (err as Error).message } };
  }
  const object = (event.data?.object ?? {}) as Record<string, unknown>;
  const checkoutId = typeof object['id'] === 'string' ? object['id'] : undefined;
  const seen = { id: event.id, type: event.type, ...(checkoutId === undefined ? {} : { checkoutId }) };
  const action = eventAction(event.type);
  if (action === 'not_supported')
    return { action, event: seen, ignored: { reason: 'other_event', message: `${event.type} is not a checkout's` } };
  const orderId = object['orderId'];
  const amount = typeof object['amount'] === 'string' ? plainDecimal(object['amount']) : undefined;
  if (typeof orderId !== 'string' || !SESSION_ID.test(orderId) || amount === undefined)
    return {
      action: 'not_supported',
      event: seen,
      ignored: { reason: 'not_a_medusa_checkout', message: `checkout ${checkoutId} names no Medusa payment session` },
    };
  return { action, data: { session_id: orderId, amount }, event: seen };
}
