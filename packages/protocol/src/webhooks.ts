import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { createHmac } from 'node:crypto';
import { Checkout } from './checkout.js';
import { Invoice } from './invoices.js';
import { EVENT_TYPE_VALUES, type EventType } from './event-types.js';
import { PaymentLink } from './payment-links.js';
import { Payout, PayoutDestination } from './payouts.js';
import { ExactNumber } from './schemas.js';

/**
 * Events and webhooks on the wire (spec/checkout.md, "Events and webhooks"), signed as Standard
 * Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with
 * the base64-decoded part of the `whsec_` secret. The body is signed and sent as the same bytes.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Verifiers accept |now − timestamp| ≤ this many seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The key bytes of a `whsec_<base64>` secret. */
export function webhookSecretKey(secret: string): Buffer {
  const text = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  return Buffer.from(text, 'base64');
}

/** One `v1,<base64>` signature of `body` as sent with `webhook-id` = msgId at `timestamp` (Unix seconds). */
export function signWebhook(secret: string, msgId: string, timestamp: number | string, body: string): string {
  return `v1,${createHmac('sha256', webhookSecretKey(secret)).update(`${msgId}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

/** The three headers of one delivery; several secrets (a rotation) give space-separated signatures. */
export function webhookHeaders(
  secrets: readonly string[],
  msgId: string,
  timestamp: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signWebhook(s, msgId, timestamp, body)).join(' '),
  };
}

export { EVENT_TYPE_VALUES } from './event-types.js';

const Time = (description: string) => Type.String({ format: 'date-time', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const WebhookEvent = Type.Object(
  {
    id: Type.String({ description: 'evt_…; the webhook-id of every delivery of this event' }),
    type: Type.String({ description: `one of ${EVENT_TYPE_VALUES.join(', ')}` }),
    createdAt: Time('when the change it reports committed'),
    sequence: Type.Integer({ description: 'grows by one per merchant, in commit order' }),
    data: Type.Object(
      {
        object: Type.Unknown({
          description: 'the object as it stood after the change (a checkout, a wallet, an endpoint)',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type WebhookEvent = Static<typeof WebhookEvent>;

export const WebhookEndpoint = Type.Object(
  {
    id: Type.String({ description: 'we_…' }),
    url: Type.String({
      description:
        'whole only in the answers of create and of an update that sets it; elsewhere masked: user info and query values as ***, token-like path segments (16+ characters) cut to their first 4 characters and …',
    }),
    description: Nullable(Type.String()),
    enabledEvents: Type.Array(Type.String(), { description: 'event types sent to this endpoint; empty: every type' }),
    disabled: Type.Boolean(),
    disabledReason: Nullable(
      Type.String({ description: 'merchant, gone (the endpoint answered 410) or failing (5 days without a success)' }),
    ),
    secret: Type.Optional(Type.String({ description: 'whsec_…: only in the answers of create and rotate-secret' })),
    previousSecretExpiresAt: Nullable(Time('while set, deliveries carry a signature with the previous secret too')),
    lastSuccessAt: Nullable(Time('last 2xx answer')),
    failingSince: Nullable(Time('first failure since the last success')),
    createdAt: Time('creation'),
    updatedAt: Time('last change'),
  },
  { additionalProperties: false },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** `data.object` of a `wallet.balance_changed` event: the posting and the balances after it. */
export const WalletBalanceChange = Type.Object(
  {
    walletId: Type.String(),
    postingId: Type.String(),
    kind: Type.Union([Type.Literal('credit'), Type.Literal('debit'), Type.Literal('freeze'), Type.Literal('unfreeze')]),
    amount: ExactNumber('The posting.'),
    balance: ExactNumber('The balance after it.'),
    freezeAmount: ExactNumber('The frozen part after it.'),
    checkoutId: Type.Optional(
      Type.String({ description: "the checkout whose settlement this is (chk_…); a settlement's credit only" }),
    ),
    payoutId: Type.Optional(
      Type.String({
        description: "the payout whose freeze, unfreeze or debit this is (po_…); a payout's postings only",
      }),
    ),
  },
  { additionalProperties: false },
);

/** `data.object` of a `test.ping` event. */
export const TestPing = Type.Object(
  {
    endpointId: Type.String({ description: 'we_…: the endpoint the test was sent to' }),
    url: Type.String(),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export type { EventType } from './event-types.js';

/**
 * What each event type carries as `data.object` and when it is written (docs/webhooks.md):
 * the OpenAPI document's `webhooks` section is built from this, one entry per type.
 */
export const EVENT_OBJECTS: Record<EventType, { object: TSchema; name: string; when: string }> = {
  'checkout.created': { object: Checkout, name: 'Checkout', when: 'a checkout was created' },
  'checkout.underpaid': {
    object: Checkout,
    name: 'Checkout',
    when: "a payment arrived, less than due (beyond the merchant's tolerance)",
  },
  'checkout.processing': { object: Checkout, name: 'Checkout', when: 'enough was paid; waiting for confirmations' },
  'checkout.settled': { object: Checkout, name: 'Checkout', when: 'paid and confirmed; the wallet was credited' },
  'checkout.expired': { object: Checkout, name: 'Checkout', when: 'the checkout expired unpaid' },
  'checkout.canceled': { object: Checkout, name: 'Checkout', when: 'the merchant canceled it' },
  'checkout.needs_review': {
    object: Checkout,
    name: 'Checkout',
    when: 'an operator must look at it (paid late, overpaid, …)',
  },
  'checkout.invalid': { object: Checkout, name: 'Checkout', when: 'an operator rejected it' },
  'wallet.balance_changed': {
    object: WalletBalanceChange,
    name: 'WalletBalanceChange',
    when: "a ledger posting changed a wallet: a settlement's credit, or an operator's credit, debit, freeze or unfreeze",
  },
  'webhook_endpoint.disabled': {
    object: WebhookEndpoint,
    name: 'WebhookEndpoint',
    when: 'one of your endpoints was disabled (it answered 410, or 5 days of failures); sent to your other endpoints',
  },
  'test.ping': {
    object: TestPing,
    name: 'TestPing',
    when: 'only from POST …/webhook-endpoints/{id}/test, only to that endpoint',
  },
  'payout.requested': { object: Payout, name: 'Payout', when: 'a payout was requested; its total is frozen' },
  'payout.approved': {
    object: Payout,
    name: 'Payout',
    when: 'a payout was approved (by an operator or the auto-approve limit)',
  },
  'payout.rejected': { object: Payout, name: 'Payout', when: 'an operator rejected a payout; its total is unfrozen' },
  'payout.canceled': { object: Payout, name: 'Payout', when: 'a payout was canceled; its total is unfrozen' },
  'payout.sent': {
    object: Payout,
    name: 'Payout',
    when: 'a payout transaction was sent, replaced at the same nonce (a fee bump, or the competing one the chain mined: `txHash` is the new one), or a reorganisation restarted its confirmations',
  },
  'payout.completed': { object: Payout, name: 'Payout', when: 'a payout is confirmed; its total was debited' },
  'payout.failed': { object: Payout, name: 'Payout', when: 'a payout transaction failed; its total is unfrozen' },
  'payout_destination.added': {
    object: PayoutDestination,
    name: 'PayoutDestination',
    when: 'a payout destination was added to the address book (cooling off)',
  },
  'payout_destination.activated': {
    object: PayoutDestination,
    name: 'PayoutDestination',
    when: 'an operator activated a payout destination before its cooling-off ended',
  },
  'payout_destination.revoked': {
    object: PayoutDestination,
    name: 'PayoutDestination',
    when: 'a payout destination was revoked',
  },
  'refund.requested': {
    object: Payout,
    name: 'Payout',
    when: "a refund of a checkout was requested (the payout, with refundOf; the checkout's timeline has its entry)",
  },
  'payment_link.created': {
    object: PaymentLink,
    name: 'PaymentLink',
    when: 'a payment link was created',
  },
  'payment_link.updated': {
    object: PaymentLink,
    name: 'PaymentLink',
    when: 'a payment link was changed (PATCH: name, description, active, maxUses, expiresAt, URLs, metadata)',
  },
  'invoice.finalized': {
    object: Invoice,
    name: 'Invoice',
    when: 'an invoice was finalized: it has its number and URL',
  },
  'invoice.partially_paid': {
    object: Invoice,
    name: 'Invoice',
    when: 'a settled checkout paid part of an invoice (sent for each such payment while something is still due)',
  },
  'invoice.paid': { object: Invoice, name: 'Invoice', when: 'settled checkouts paid an invoice in full' },
  'invoice.voided': { object: Invoice, name: 'Invoice', when: 'an open invoice was voided' },
  'invoice.marked_uncollectible': {
    object: Invoice,
    name: 'Invoice',
    when: 'an open or partially paid invoice was marked uncollectible',
  },
};

export const WebhookAttempt = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String(),
    eventType: Type.String(),
    attemptedAt: Time('when the request started'),
    statusCode: Type.Union([Type.Integer(), Type.Null()], {
      description: 'the HTTP status answered; null for a network error',
    }),
    error: Nullable(
      Type.String({ description: 'network error, timeout or refused address; null when an HTTP status came back' }),
    ),
    latencyMs: Type.Integer(),
    responseBody: Nullable(Type.String({ description: 'the first 2 KB of the answer' })),
    succeeded: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'https (http to loopback only in a sandbox); no private, loopback or metadata address',
    }),
    enabledEvents: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20, description: 'omitted or empty: every type' }),
    ),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(CreateWebhookEndpointBody.properties.url),
    enabledEvents: Type.Optional(CreateWebhookEndpointBody.properties.enabledEvents),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
    disabled: Type.Optional(Type.Boolean({ description: 'false re-enables an endpoint disabled for failing or 410' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookEndpointBody = Static<typeof UpdateWebhookEndpointBody>;

export const WEBHOOK_PATHS = {
  events: '/api/v1/cp/events',
  eventStream: '/api/v1/cp/events/stream',
  event: '/api/v1/cp/events/:id',
  redeliver: '/api/v1/cp/events/:id/redeliver',
  endpoints: '/api/v1/cp/webhook-endpoints',
  endpoint: '/api/v1/cp/webhook-endpoints/:id',
  rotateSecret: '/api/v1/cp/webhook-endpoints/:id/rotate-secret',
  test: '/api/v1/cp/webhook-endpoints/:id/test',
  deliveries: '/api/v1/cp/webhook-endpoints/:id/deliveries',
  replay: '/api/v1/cp/webhook-endpoints/:id/replay',
} as const;

/**
 * How often the event stream writes a `: keep-alive` comment when it has no event to send, ms:
 * proxies keep the idle stream open, and a client that hears nothing for several of these knows
 * the connection is gone (`hostpay listen` reconnects).
 */
export const EVENT_STREAM_KEEPALIVE_MS = 15_000;
