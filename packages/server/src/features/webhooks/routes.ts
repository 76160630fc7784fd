import {
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WEBHOOK_PATHS,
  WebhookAttempt,
  WebhookEndpoint,
} from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import type { Metric } from 'prom-client';
import { Id, IdempotencyHeaders, IdParams, PageQuery, pageOf } from '../../admin/schemas.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { successBody, successPageBody } from '../../http/success-body.js';
import {
  BASE_ERRORS,
  merchantScope,
  MerchantQuery,
  ok,
  okPage,
  send,
  WRITE_ERRORS,
  type WebhookRouteContext,
} from './route-kit.js';

type MerchantOf = ReturnType<typeof merchantScope>;

export type { WebhookRouteContext } from './route-kit.js';

const Deleted = Type.Object(
  { ...WebhookEndpoint.properties, deleted: Type.Literal(true) },
  { additionalProperties: false },
);
const Tested = Type.Object(
  { eventId: Type.String(), deliveryId: Type.String(), endpointId: Type.String() },
  { additionalProperties: false },
);
const Replayed = Type.Object(
  { endpointId: Type.String(), since: Type.String(), queued: Type.Integer({ description: 'events queued again' }) },
  { additionalProperties: false },
);
const Query = Type.Object(MerchantQuery, { additionalProperties: false });
const URL_ERRORS = [...WRITE_ERRORS, 'INVALID_URL'] as const;
const scope = { scope: 'webhooks:write' as const };

const Redelivered = Type.Object(
  {
    eventId: Type.String(),
    deliveries: Type.Array(
      Type.Object({ endpointId: Type.String(), deliveryId: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Redelivery of one event (webhooks:write), at the events' path. Its own scope, registered right
 * after the events routes, with their body example.
 */
export async function eventRedeliverRoutes(app: TypedApp, ctx: WebhookRouteContext): Promise<void> {
  const webhooks = ctx.webhooks;
  const merchantOf = merchantScope(app, ctx, '{"endpointId": "we_…"}');

  app.post(
    WEBHOOK_PATHS.redeliver,
    {
      bodyLimit: 1024,
      schema: {
        tags: ['webhooks'],
        operationId: 'redeliverEvent',
        summary: 'Send one event again',
        description:
          "Queues the event again, with the same webhook-id: to `endpointId` if given (even if it does not subscribe to the type), else to every enabled endpoint that subscribes to it. Each send shows in the endpoint's deliveries.",
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: IdParams('event'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        body: Type.Object(
          { endpointId: Type.Optional(Id('webhook endpoint')) },
          { additionalProperties: false, description: 'no body, {} or {endpointId}' },
        ),
        response: { 202: ok(Redelivered, 'What was queued.'), ...errorResponses(WRITE_ERRORS) },
      },
      config: { scope: 'webhooks:write' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      return send(
        reply,
        202,
        successBody(await webhooks.endpoints.redeliver(merchantId, req.params.id, req.body.endpointId), 'event queued'),
      );
    },
  );
}

/**
 * The merchant's webhook endpoints (spec/checkout.md, "Events and webhooks"): CRUD, the secret
 * shown at creation and rotation only, test pings, the attempt log and replay. Every route needs
 * webhooks:write (there is no separate read scope for endpoints: their settings are the write side).
 */
export async function webhookMerchantRoutes(app: TypedApp, ctx: WebhookRouteContext): Promise<void> {
  const webhooks = ctx.webhooks;
  for (const metric of webhooks.metrics.collectors() as (Metric & { name: string })[]) {
    if (ctx.metrics.registry.getSingleMetric(metric.name) === undefined) ctx.metrics.registry.registerMetric(metric);
  }
  const svc = webhooks.endpoints;
  const merchantOf = merchantScope(app, ctx, '{"url": "https://example.com/hooks"}');
  const idParams = IdParams('webhook endpoint');

  app.post(
    WEBHOOK_PATHS.endpoints,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint (the secret is shown once)',
        description:
          'The URL must be https (http to localhost only on a sandbox server) and neither be nor resolve to a loopback, private, link-local, CGNAT, multicast or metadata address, in any spelling: else 400 INVALID_URL. The answer carries `secret` (whsec_…), shown only here and at rotation. Omitted or empty enabledEvents: every event type.',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        querystring: Query,
        body: CreateWebhookEndpointBody,
        response: { 201: ok(WebhookEndpoint, 'The endpoint with its secret.'), ...errorResponses(URL_ERRORS) },
      },
      config: scope,
    },
    async (req, reply) =>
      send(
        reply,
        201,
        successBody(
          await svc.create(await merchantOf(req, req.query.merchantId), req.body),
          'webhook endpoint created',
        ),
      ),
  );

  app.get(
    WEBHOOK_PATHS.endpoints,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints, newest first',
        description: 'Secrets are never listed. `nextCursor` (null on the last page) is sent back as ?cursor=.',
        security: SECURITY.merchant,
        querystring: Type.Object({ ...MerchantQuery, ...PageQuery }, { additionalProperties: false }),
        response: { 200: okPage(WebhookEndpoint, 'Endpoints, newest first.'), ...errorResponses(BASE_ERRORS) },
      },
      config: scope,
    },
    async (req, reply) => {
      const result = await svc.list(await merchantOf(req, req.query.merchantId), pageOf(req.query));
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );

  app.get(
    WEBHOOK_PATHS.endpoint,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'getWebhookEndpoint',
        summary: 'One webhook endpoint',
        description:
          "Its settings and health (last success, failing since, disabled and why). Another merchant's id is 404.",
        security: SECURITY.merchant,
        params: idParams,
        querystring: Query,
        response: { 200: ok(WebhookEndpoint, 'The endpoint.'), ...errorResponses(BASE_ERRORS) },
      },
      config: scope,
    },
    async (req, reply) =>
      send(reply, 200, successBody(await svc.get(await merchantOf(req, req.query.merchantId), req.params.id))),
  );

  app.patch(
    WEBHOOK_PATHS.endpoint,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'updateWebhookEndpoint',
        summary: 'Change url, enabledEvents, description or disabled',
        description:
          'A new url is checked like at creation. `disabled: false` re-enables an endpoint that was disabled (by you, by a 410 answer or after 5 days of failures); what was queued meanwhile is sent then, and replay fills any gap.',
        security: SECURITY.merchant,
        params: idParams,
        querystring: Query,
        body: UpdateWebhookEndpointBody,
        response: {
          200: ok(WebhookEndpoint, 'The endpoint as changed.'),
          ...errorResponses([...BASE_ERRORS, 'INVALID_URL']),
        },
      },
      config: scope,
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await svc.update(await merchantOf(req, req.query.merchantId), req.params.id, req.body),
          'webhook endpoint updated',
        ),
      ),
  );

  app.delete(
    WEBHOOK_PATHS.endpoint,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'Stops deliveries to it at once and removes its queue and attempt log.',
        security: SECURITY.merchant,
        params: idParams,
        querystring: Query,
        response: { 200: ok(Deleted, 'The endpoint as it was.'), ...errorResponses(BASE_ERRORS) },
      },
      config: scope,
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await svc.remove(await merchantOf(req, req.query.merchantId), req.params.id),
          'webhook endpoint deleted',
        ),
      ),
  );

  endpointSecretAndLogRoutes(app, ctx, merchantOf);
}

/** An endpoint's secret rotation, test ping, attempt log and replay. */
function endpointSecretAndLogRoutes(app: TypedApp, ctx: WebhookRouteContext, merchantOf: MerchantOf): void {
  const svc = ctx.webhooks.endpoints;
  const idParams = IdParams('webhook endpoint');

  app.post(
    WEBHOOK_PATHS.rotateSecret,
    {
      bodyLimit: 1024,
      schema: {
        tags: ['webhooks'],
        operationId: 'rotateWebhookSecret',
        summary: 'New secret; the old one keeps signing for 24 h',
        description:
          'The answer carries the new `secret`. For 24 h every delivery carries two signatures in webhook-signature (new and old, space-separated), so receivers can switch whenever they like.',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: idParams,
        querystring: Query,
        body: Type.Object({}, { additionalProperties: false, description: 'no body, or {}' }),
        response: { 200: ok(WebhookEndpoint, 'The endpoint with its new secret.'), ...errorResponses(WRITE_ERRORS) },
      },
      config: scope,
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await svc.rotateSecret(await merchantOf(req, req.query.merchantId), req.params.id),
          'secret rotated',
        ),
      ),
  );

  app.post(
    WEBHOOK_PATHS.test,
    {
      bodyLimit: 1024,
      schema: {
        tags: ['webhooks'],
        operationId: 'testWebhookEndpoint',
        summary: 'Send a test.ping event to this endpoint',
        description:
          'Writes a `test.ping` event and queues it for this endpoint only; the attempt shows in its deliveries.',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: idParams,
        querystring: Query,
        body: Type.Object({}, { additionalProperties: false, description: 'no body, or {}' }),
        response: { 202: ok(Tested, 'The test event and its delivery.'), ...errorResponses(WRITE_ERRORS) },
      },
      config: scope,
    },
    async (req, reply) =>
      send(
        reply,
        202,
        successBody(await svc.test(await merchantOf(req, req.query.merchantId), req.params.id), 'test event queued'),
      ),
  );

  app.get(
    WEBHOOK_PATHS.deliveries,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'listWebhookDeliveries',
        summary: 'Every delivery attempt to this endpoint, newest first',
        description:
          'Each attempt: when, the HTTP status or the network error, latency, and the first 2 KB of the answer. Filter with ?eventId=.',
        security: SECURITY.merchant,
        params: idParams,
        querystring: Type.Object(
          { ...MerchantQuery, ...PageQuery, eventId: Type.Optional(Id('event')) },
          { additionalProperties: false },
        ),
        response: { 200: okPage(WebhookAttempt, 'Attempts, newest first.'), ...errorResponses(BASE_ERRORS) },
      },
      config: scope,
    },
    async (req, reply) => {
      const result = await svc.attempts(
        await merchantOf(req, req.query.merchantId),
        req.params.id,
        pageOf(req.query),
        req.query.eventId,
      );
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );

  app.post(
    WEBHOOK_PATHS.replay,
    {
      bodyLimit: 1024,
      schema: {
        tags: ['webhooks'],
        operationId: 'replayWebhookEvents',
        summary: 'Send every event since a time again',
        description:
          'After an outage: queues, in sequence order, every event since `since` that this endpoint subscribes to (each with its own webhook-id, so receivers can drop the ones they already have). Events already waiting for this endpoint are not queued twice.',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: idParams,
        querystring: Query,
        body: Type.Object(
          {
            since: Type.String({
              minLength: 1,
              maxLength: 64,
              description: 'ISO 8601 time, e.g. 2027-01-01T00:00:00Z',
            }),
          },
          { additionalProperties: false },
        ),
        response: { 202: ok(Replayed, 'How many events were queued.'), ...errorResponses(WRITE_ERRORS) },
      },
      config: scope,
    },
    async (req, reply) =>
      send(
        reply,
        202,
        successBody(
          await svc.replay(await merchantOf(req, req.query.merchantId), req.params.id, req.body.since),
          'events queued',
        ),
      ),
  );
}
