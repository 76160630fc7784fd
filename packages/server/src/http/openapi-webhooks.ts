import { EVENT_OBJECTS, EVENT_TYPE_VALUES, WEBHOOK_TOLERANCE_SECONDS, WebhookEvent } from '@hostpay/protocol';

/**
 * The document's OpenAPI 3.1 `webhooks`: one entry per event type, its body the event envelope
 * with `data.object` typed for that type (a checkout, a balance change, an endpoint, a ping), so
 * generated clients can type the events they receive and read from the events API. Built from
 * protocol's EVENT_OBJECTS, the list the server writes events from.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

/** `checkout.needs_review` -> `CheckoutNeedsReviewEvent`: the component name of that event. */
export function eventSchemaName(type: string): string {
  const words = type.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  return `${words.join('')}Event`;
}

/** Plain JSON of a TypeBox schema (its symbol-keyed metadata and its $id dropped). */
function plain(schema: unknown): JsonObject {
  const { $id: _id, ...rest } = JSON.parse(JSON.stringify(schema)) as JsonObject;
  return rest;
}

const header = (name: string, description: string): JsonObject => ({
  in: 'header',
  name,
  required: true,
  description,
  schema: { type: 'string' },
});

const HEADERS = [
  header('webhook-id', 'The event id (evt_…), the same on every retry, redelivery and replay: drop duplicates by it.'),
  header(
    'webhook-timestamp',
    `Unix seconds when this attempt was signed; accept |now − timestamp| ≤ ${WEBHOOK_TOLERANCE_SECONDS} s.`,
  ),
  header(
    'webhook-signature',
    'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> keyed with the base64-decoded part of the whsec_ secret; during a rotation two, space-separated. Verify the raw body before parsing it.',
  ),
];

/** Adds `webhooks` and its schemas (one event schema per type, the objects they carry, and `Event`: any of them). */
export function addWebhooks(doc: JsonObject): void {
  if (typeof doc.components !== 'object' || doc.components === null) doc.components = {};
  const components = doc.components as JsonObject;
  if (typeof components.schemas !== 'object' || components.schemas === null) components.schemas = {};
  const schemas = components.schemas as JsonObject;
  const webhooks: JsonObject = {};
  const envelope = plain(WebhookEvent);
  const envelopeProps = envelope.properties as JsonObject;
  for (const type of EVENT_TYPE_VALUES) {
    const { object, name, when } = EVENT_OBJECTS[type];
    schemas[name] ??= plain(object);
    const eventName = eventSchemaName(type);
    schemas[eventName] = {
      ...envelope,
      description: `The \`${type}\` event: ${when}.`,
      properties: {
        ...envelopeProps,
        type: { type: 'string', enum: [type] },
        data: {
          type: 'object',
          additionalProperties: false,
          required: ['object'],
          properties: {
            object: {
              $ref: `#/components/schemas/${name}`,
              description: 'the object as it stood after the change; amounts are exact number literals',
            },
          },
        },
      },
    };
    webhooks[type] = {
      post: {
        operationId: `${eventName.charAt(0).toLowerCase()}${eventName.slice(1)}Webhook`,
        tags: ['webhooks'],
        summary: `${type}: ${when}`,
        description: `Sent to every enabled endpoint subscribed to \`${type}\` (docs/webhooks.md), as \`POST <url>\` with this event as the body, signed as Standard Webhooks.`,
        security: [],
        parameters: HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${eventName}` } } },
        },
        responses: {
          '200': {
            description:
              'Any 2xx acknowledges the delivery. Another status, a timeout (10 s) or a network error is retried; 410 disables the endpoint.',
          },
        },
      },
    };
  }
  schemas.Event = {
    description: 'Any event, as webhooks deliver it and the events API returns it; `type` tells which.',
    oneOf: EVENT_TYPE_VALUES.map((type) => ({ $ref: `#/components/schemas/${eventSchemaName(type)}` })),
  };
  doc.webhooks = webhooks;
  // The events API answers the same events: its untyped copies of the envelope become `Event`.
  const untyped = canonical(envelope);
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== 'object' || node === null) return node;
    if (canonical(node) === untyped) return { $ref: '#/components/schemas/Event' };
    for (const [k, v] of Object.entries(node)) node[k] = visit(v);
    return node;
  };
  if (typeof doc.paths === 'object' && doc.paths !== null) doc.paths = visit(doc.paths);
}

/** JSON text with object keys sorted: equal for equal schemas whatever their key order. */
function canonical(node: Json): string {
  if (Array.isArray(node)) return `[${node.map(canonical).join(',')}]`;
  if (typeof node !== 'object' || node === null) return JSON.stringify(node);
  const keys = Object.keys(node).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(node[k] as Json)}`).join(',')}}`;
}
