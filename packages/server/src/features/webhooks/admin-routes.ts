import { WebhookAttempt, WebhookEndpoint } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { auditOf, type AdminRouteContext } from '../../admin/reply.js';
import { Id, IdParams, pageOf, PageQuery, Query, READ, WRITE } from '../../admin/schemas.js';
import { JSON_UTF8 } from '../../http/envelope.js';
import { errorResponses, ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { successBody, successSchema } from '../../http/success-body.js';
import type { Provisions } from '../../feature-kit/feature.js';

// Named through the registry: importing feature.ts, which imports these routes, would be a loop.
type Webhooks = Provisions['webhooks'];

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Health = Type.Object(
  {
    attempts24h: Type.Integer(),
    // A ratio computed in binary floating point, not an amount: `double`, unlike the decimals.
    successRate24h: Type.Union([Type.Number({ format: 'double' }), Type.Null()], {
      description: 'share of the last 24 h of attempts that got a 2xx (a float, 0 to 1); null without attempts',
    }),
    lastSuccessAt: Nullable(Type.String()),
    failingSince: Nullable(Type.String()),
    queued: Type.Integer({ description: 'deliveries waiting (due or waiting for a retry)' }),
    oldestQueuedAt: Nullable(Type.String()),
    disabled: Type.Boolean(),
    disabledReason: Nullable(Type.String()),
    disabledAt: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
const AdminEndpoint = Type.Object(
  { ...WebhookEndpoint.properties, merchantId: Type.String(), health: Health },
  { additionalProperties: false },
);
const ok = successSchema;
const send = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type(JSON_UTF8).send(body);
const Attempts = Type.Object(
  { items: Type.Array(WebhookAttempt), nextCursor: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);
const Redelivered = Type.Object(
  {
    eventId: Type.String(),
    deliveries: Type.Array(
      Type.Object({ endpointId: Type.String(), deliveryId: Type.String() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

/** Operators see every merchant's webhook endpoints and how each is doing. */
export async function webhookAdminRoutes(
  app: TypedApp,
  { admin }: AdminRouteContext<Webhooks['admin']>,
): Promise<void> {
  app.get(
    '/webhook-endpoints',
    {
      schema: {
        ...READ,
        operationId: 'listAllWebhookEndpoints',
        summary: "Every merchant's webhook endpoints with their health",
        description:
          'Oldest first, paged with nextCursor. Filters: merchantId, disabled=true|false (the disabled ones, with the reason: merchant, gone or failing).',
        querystring: Query({
          ...PageQuery,
          merchantId: Type.Optional(Id('merchant')),
          disabled: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
        }),
        response: {
          200: ok(
            Type.Object(
              { items: Type.Array(AdminEndpoint), nextCursor: Type.Union([Type.String(), Type.Null()]) },
              { additionalProperties: false },
            ),
            'A page of endpoints.',
          ),
          ...errorResponses(ERRORS.adminRead),
        },
      },
    },
    async (req, reply) => {
      const { merchantId, disabled } = req.query;
      return send(
        reply,
        successBody(
          await admin.listWebhookEndpoints(
            { merchantId, disabled: disabled === undefined ? undefined : disabled === 'true' },
            pageOf(req.query),
          ),
        ),
      );
    },
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      schema: {
        ...READ,
        operationId: 'getAnyWebhookEndpoint',
        summary: 'One webhook endpoint with its health',
        description: 'Success rate of the last 24 h, last success, queue, and whether and why it is disabled.',
        params: IdParams('webhook endpoint'),
        response: { 200: ok(AdminEndpoint, 'The endpoint.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) => send(reply, successBody(await admin.getWebhookEndpoint(req.params.id))),
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      schema: {
        ...READ,
        operationId: 'listAnyWebhookDeliveries',
        summary: "The delivery log of any merchant's webhook endpoint, newest first",
        description:
          "Each attempt: when, the HTTP status or the network error, latency, and the first 2 KB of the answer (the merchant's own log, read by an operator). Filter with ?eventId=.",
        params: IdParams('webhook endpoint'),
        querystring: Query({ ...PageQuery, eventId: Type.Optional(Id('event')) }),
        response: { 200: ok(Attempts, 'A page of attempts.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) =>
      send(reply, successBody(await admin.webhookAttempts(req.params.id, pageOf(req.query), req.query.eventId))),
  );

  app.post(
    '/webhook-endpoints/:id/redeliver',
    {
      bodyLimit: 1024,
      schema: {
        ...WRITE,
        operationId: 'redeliverToWebhookEndpoint',
        summary: 'Send one event to this endpoint again',
        description:
          "Queues the event (one of the endpoint merchant's) for this endpoint again, with the same webhook-id, even if the endpoint does not subscribe to its type. The send shows in the delivery log; the request is recorded in the audit log (`webhook.redeliver`).",
        params: IdParams('webhook endpoint'),
        body: Type.Object({ eventId: Id('event') }, { additionalProperties: false }),
        response: { 202: ok(Redelivered, 'What was queued.'), ...errorResponses(ERRORS.adminWrite) },
      },
    },
    async (req, reply) =>
      send(
        reply,
        successBody(await admin.redeliverToEndpoint(req.params.id, req.body.eventId, auditOf(req)), 'event queued'),
        202,
      ),
  );
}
