import { WEBHOOK_PATHS, WebhookEvent } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../auth/principal.js';
import { IdParams, PageQuery, pageOf } from '../../admin/schemas.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import type { AdminIdempotency } from '../../http/idempotency.js';
import { BASE_ERRORS, merchantScope, MerchantQuery, ok, okPage, send } from '../../http/merchant-scope.js';
import type { RouteContext } from '../../http/route-context.js';
import type { Provisions } from '../../feature-kit/feature.js';
import { parseTypes } from './service.js';
import { streamCredentialCheck } from './stream-credentials.js';
import { envelopeJson } from '../../http/success-body.js';

// Named through the registry: importing feature.ts, which imports these routes, would be a loop.
type Events = Provisions['events'];

/** A sequence in a query (arrives as text, read as an integer by http/validator.ts). */
const SequenceQuery = (description: string) => Type.Integer({ minimum: 0, maximum: 999_999_999_999_999, description });

/** What the events routes need beyond the common route context. */
export interface EventRouteContext extends RouteContext {
  events: Events;
  idempotency?: AdminIdempotency | undefined;
}

/**
 * The merchant's events (spec/checkout.md, "Events and webhooks"): the same JSON that webhooks
 * carry, readable by polling and as a stream. Scope events:read; redelivery of one of them is a
 * webhook action (webhooks/routes.ts).
 */
export async function eventMerchantRoutes(app: TypedApp, ctx: EventRouteContext): Promise<void> {
  const events = ctx.events;
  const merchantOf = merchantScope(app, ctx, 8 * 1024, '{"endpointId": "we_…"}');
  // Open streams would hold the shutdown until they end by themselves.
  app.addHook('preClose', async () => events.streams.closeAll());

  app.get(
    WEBHOOK_PATHS.events,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'listEvents',
        summary: 'List events, newest first',
        description:
          'Every event of the merchant, newest first (highest sequence first). Filter with ?type= (one type or several, comma-separated) and ?checkoutId= (the events about one checkout). `result` is an array; `nextCursor` (null on the last page) is sent back as ?cursor=. Amounts inside `data.object` are exact number literals.',
        security: SECURITY.merchant,
        querystring: Type.Object(
          {
            ...MerchantQuery,
            ...PageQuery,
            type: Type.Optional(
              Type.String({ maxLength: 400, description: 'event type(s), comma-separated, e.g. checkout.settled' }),
            ),
            afterSequence: Type.Optional(
              SequenceQuery('only events with a higher sequence (what `hostpay listen` polls with)'),
            ),
            checkoutId: Type.Optional(
              Type.String({
                pattern: '^chk_[A-Za-z0-9]{1,64}$',
                description:
                  "only the events about this checkout: its checkout.* events, the wallet credits it caused and its refunds' requests",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: okPage(WebhookEvent, 'Events, newest first.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'events:read' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const { afterSequence, checkoutId } = req.query;
      const result = await events.events.list(merchantId, {
        ...pageOf(req.query),
        types: parseTypes(req.query.type),
        afterSequence,
        checkoutId,
      });
      return send(reply, 200, envelopeJson(result.itemsJson, 'OK', result.nextCursor));
    },
  );

  app.get(
    WEBHOOK_PATHS.eventStream,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'streamEvents',
        summary: 'Follow events as Server-Sent Events',
        description:
          "A `text/event-stream` of the merchant's events in sequence order: every event after `afterSequence` (default: the newest now), then each new one as it commits. Each message: `id:` the sequence, `event:` the type, `data:` the event JSON exactly as webhooks carry it. `: keep-alive` comments every 15 s. The stream ends after `maxSeconds` (0: once the events there are now are sent), or when the bearer token or the key expires, and within about a second when the key is revoked, its merchant suspended or its `events:read` scope removed (a `: stream ended: <CODE>` comment, then the end); reconnect with the last id as `afterSequence`. At most 5 streams at once per merchant (429 RATE_LIMITED). What `hostpay listen` follows.",
        security: SECURITY.merchant,
        querystring: Type.Object(
          {
            ...MerchantQuery,
            type: Type.Optional(
              Type.String({ maxLength: 400, description: 'only these event type(s), comma-separated' }),
            ),
            afterSequence: Type.Optional(SequenceQuery('start after this sequence (default: the newest event now)')),
            maxSeconds: Type.Optional(
              Type.Integer({
                minimum: 0,
                maximum: 3600,
                description:
                  'end the stream after this many seconds, 0–3600 (default 3600; 0: send what there is and end)',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: {
            description: 'The event stream.',
            content: {
              'text/event-stream': {
                schema: Type.String({
                  description: 'Server-Sent Events: id (sequence), event (type), data (the event JSON)',
                }),
              },
            },
          },
          ...errorResponses(BASE_ERRORS),
        },
      },
      config: { scope: 'events:read' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const asked = req.query.maxSeconds ?? 3600;
      // Authenticated at connect: the stream ends when its token or key would no longer be
      // accepted — at their expiry (maxSeconds), and when revoked, suspended or narrowed (asked
      // again about every second, stream-credentials.ts).
      const principal = principalOf(req);
      // A session's stream ends with the session, which the credential check asks about.
      const limits =
        principal.via === 'session'
          ? [Number.POSITIVE_INFINITY]
          : [
              principal.token === null ? Number.POSITIVE_INFINITY : principal.token.exp * 1000,
              principal.key.expiresAt === null ? Number.POSITIVE_INFINITY : Date.parse(principal.key.expiresAt),
            ];
      const maxSeconds =
        asked === 0 ? 0 : Math.max(1, Math.min(asked, Math.floor((Math.min(...limits) - ctx.now()) / 1000)));
      const { afterSequence } = req.query;
      await events.streams.serve(req, reply, {
        merchantId,
        types: parseTypes(req.query.type),
        afterSequence,
        maxSeconds,
        credentials: streamCredentialCheck(ctx.services, principal, {
          scope: 'events:read',
          ip: req.ip,
          merchantId,
          now: ctx.now,
          sessions: ctx.sessions,
        }),
      });
    },
  );

  app.get(
    WEBHOOK_PATHS.event,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'getEvent',
        summary: "One event (another merchant's id is 404)",
        description: 'The event exactly as webhooks deliver it: `{id, type, createdAt, sequence, data: {object}}`.',
        security: SECURITY.merchant,
        params: IdParams('event'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        response: { 200: ok(WebhookEvent, 'The event.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'events:read' },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        envelopeJson(await events.events.get(await merchantOf(req, req.query.merchantId), req.params.id)),
      ),
  );
}
