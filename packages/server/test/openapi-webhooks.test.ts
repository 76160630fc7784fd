import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../src/features/events/outbox.js';
import { eventSchemaName } from '../src/http/openapi-webhooks.js';
import { checkoutCall, configureChains, resultOf } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { ResponseValidator, type OpenApiDoc, type WebhookOperation } from './http-helpers/openapi-validator.js';
import { drain, merchantCall, Receiver } from './http-helpers/webhooks.js';

/**
 * The document's OpenAPI 3.1 `webhooks` section: one entry per event type the server writes,
 * each with the signature headers and a body schema whose `data.object` is typed for that type;
 * and real deliveries (a paid, an underpaid and a canceled checkout, a balance change, a test
 * ping, an endpoint disabled by a 410) validated against the entry of their own type.
 */
let fx: HttpFixture;
let doc: OpenApiDoc;
let validator: ResponseValidator;
let rx: Receiver;
let gone: Receiver;
const C = '/api/v1/cp/psp/hosted-pay';
const E = '/api/v1/cp/webhook-endpoints';

beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
  await configureChains(fx.services);
  doc = (await fx.app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDoc>();
  validator = new ResponseValidator(doc);
  rx = await Receiver.start();
  gone = await Receiver.start();
  gone.answer = (_req, res) => res.writeHead(410).end();
});
afterAll(async () => {
  await fx.close();
  await rx.close();
  await gone.close();
});

const webhook = (type: string): WebhookOperation | undefined => doc.webhooks?.[type]?.post;
/** The component name a webhook's body schema refers to. */
const bodySchemaOf = (op: WebhookOperation) =>
  String(op.requestBody.content['application/json']?.schema.$ref).replace('#/components/schemas/', '');

describe('the webhooks section', () => {
  it('has one POST per event type the server writes, and nothing else', () => {
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) expect(Object.keys(doc.webhooks?.[type] ?? {}), type).toEqual(['post']);
  });

  it('each carries the three signature headers and a required body typed for its event', () => {
    const ids = new Set<string>();
    for (const type of EVENT_TYPES) {
      const op = webhook(type);
      if (op === undefined) throw new Error(`${type}: no webhook`);
      ids.add(op.operationId);
      expect(
        op.parameters.map((p) => `${p.in} ${p.name} ${String(p.required)}`),
        type,
      ).toEqual(['header webhook-id true', 'header webhook-timestamp true', 'header webhook-signature true']);
      expect(op.requestBody.required).toBe(true);
      const name = bodySchemaOf(op);
      expect(name).toBe(eventSchemaName(type));
      const schema = doc.components.schemas[name] as {
        properties: { type: { enum: string[] }; data: { properties: { object: { $ref: string } } } };
      };
      expect(schema.properties.type.enum).toEqual([type]);
      const object = schema.properties.data.properties.object.$ref;
      const others: Record<string, string> = {
        'wallet.balance_changed': 'WalletBalanceChange',
        'webhook_endpoint.disabled': 'WebhookEndpoint',
        'test.ping': 'TestPing',
        'payment_link.created': 'PaymentLink',
        'payment_link.updated': 'PaymentLink',
      };
      if (type.startsWith('invoice.')) others[type] = 'Invoice';
      const expected = type.startsWith('checkout.')
        ? 'Checkout'
        : type.startsWith('payout.') || type === 'refund.requested'
          ? 'Payout'
          : type.startsWith('payout_destination.')
            ? 'PayoutDestination'
            : others[type];
      expect(object, type).toBe(`#/components/schemas/${expected}`);
    }
    expect(ids.size).toBe(EVENT_TYPES.length);
  });

  it('a body of one type does not pass for another (data.object and type are checked)', () => {
    const ping = {
      id: 'evt_1',
      type: 'test.ping',
      createdAt: '2027-01-01T00:00:00.000Z',
      sequence: 1,
      data: { object: { endpointId: 'we_1', url: 'https://example.com/h', message: 'hi' } },
    };
    expect(validator.schemaProblems('TestPingEvent', ping)).toEqual([]);
    expect(validator.schemaProblems('Event', ping)).toEqual([]);
    expect(validator.schemaProblems('CheckoutCreatedEvent', ping)).not.toEqual([]);
    expect(validator.schemaProblems('TestPingEvent', { ...ping, type: 'checkout.created' })).not.toEqual([]);
    expect(validator.schemaProblems('TestPingEvent', { ...ping, data: { object: {} } })).not.toEqual([]);
  });

  it('the events API answers `Event`, the same schemas', () => {
    type Schema = { properties?: { result?: unknown } } | undefined;
    const result = (path: string) =>
      (doc.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema as Schema)?.properties?.result;
    expect(result('/api/v1/cp/events/{id}')).toEqual({ $ref: '#/components/schemas/Event' });
    expect(result('/api/v1/cp/events')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Event' } });
  });
});

describe('real deliveries', () => {
  it('every event delivered validates against the webhook entry of its type, with its headers', async () => {
    const create = await merchantCall(fx, fx.demo, 'POST', E, { url: rx.url });
    expect(create.statusCode, create.body).toBe(201);
    const created = async (amount: string) =>
      resultOf<{ id: string }>(
        await checkoutCall(fx, fx.demo, 'POST', C, {
          amount,
          currency: 'USDT',
          paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        }),
      ).id;
    const paid = await created('12.5');
    expect(
      (await checkoutCall(fx, fx.demo, 'POST', `${C}/${paid}/simulate-payment`, { asset: 'USDT', chain: 'TRON' }))
        .statusCode,
    ).toBe(200);
    const under = await created('30');
    const part = await checkoutCall(fx, fx.demo, 'POST', `${C}/${under}/simulate-payment`, {
      asset: 'USDT',
      chain: 'TRON',
      amount: '1.123456',
    });
    expect(part.statusCode, part.body).toBe(200);
    const canceled = await created('7');
    expect((await checkoutCall(fx, fx.demo, 'POST', `${C}/${canceled}/cancel`)).statusCode).toBe(200);
    const endpoint = resultOf<{ id: string }>(await merchantCall(fx, fx.demo, 'POST', E, { url: gone.url }));
    expect((await merchantCall(fx, fx.demo, 'POST', `${E}/${endpoint.id}/test`)).statusCode).toBe(202);
    // Deliver: the 410 disables the second endpoint, whose `webhook_endpoint.disabled` goes to the first.
    await drain(fx.services.webhooks.worker);
    await drain(fx.services.webhooks.worker);

    const types = new Set<string>();
    for (const r of rx.received) {
      const body = JSON.parse(r.body) as { type: string };
      const op = webhook(body.type);
      if (op === undefined) throw new Error(`${body.type}: delivered, but not in the webhooks section`);
      types.add(body.type);
      expect(validator.schemaProblems(bodySchemaOf(op), body), r.body.slice(0, 300)).toEqual([]);
      for (const p of op.parameters) expect(r.headers[p.name], `${body.type} ${p.name}`).toMatch(/\S/);
    }
    expect([...types].sort()).toEqual(
      [
        'checkout.created',
        'checkout.underpaid',
        'checkout.processing',
        'checkout.settled',
        'checkout.canceled',
        'wallet.balance_changed',
        'webhook_endpoint.disabled',
      ].sort(),
    );
    const pings = gone.received.map((r) => JSON.parse(r.body) as { type: string });
    expect(pings.map((p) => p.type)).toEqual(['test.ping']);
    expect(validator.schemaProblems(bodySchemaOf(webhook('test.ping') as WebhookOperation), pings[0])).toEqual([]);
  });
});
