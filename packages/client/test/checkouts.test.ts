import { describe, expect, expectTypeOf, it } from 'vitest';
import { signV2 as protocolSignV2 } from '@hostpay/protocol';
import { HostpayClient, HostpayError, type Checkout, type CheckoutPage } from '../src/index.js';

/** client.checkouts against a scripted fetch: what goes out (path, query, body, headers) and what comes back. */
interface Sent {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
}

const SECRET = 'sk_test';
// A checkout answer as the server writes it: decimals as number literals a float would round.
const CHECKOUT_JSON = `{"id":"chk_1","status":"open","reason":null,"amount":12345678901234567.123456789012345678,"currency":"EUR",
  "fee":{"isPercentage":true,"value":1.5,"minValue":1,"onChainFee":0,"currency":"USDT","originalCurrency":"EUR","amount":100,"convertedAmount":108.42,"rate":1.0842,"serviceFee":1.6263,"fee":1.6263,"tier":{"fromAmount":0,"toAmount":null},"scheduleSource":"default"},
  "orderId":"o-1","description":null,"metadata":{"amount":"7"},"url":"http://h/pay/chk_1","successUrl":null,"cancelUrl":null,
  "expiresAt":"2030-01-01T00:00:00.000Z","createdAt":"2030-01-01T00:00:00.000Z","updatedAt":"2030-01-01T00:00:00.000Z",
  "paymentOptions":[{"asset":"ETH","chain":"ETH","network":"ERC20","tokenContract":null,"address":"0xabc","amountDue":0.123456789012345678,"rate":0.000456789012345678,"received":0.1,"remaining":0.023456789012345678,"fee":0.000000000000000001,"netAmount":0.123456789012345677,"confirmationsRequired":12}],
  "payments":[{"id":"pay_1","chain":"ETH","asset":"ETH","txHash":"0x1","index":0,"address":"0xabc","amount":0.1,"confirmations":3,"confirmed":false,"retracted":false,"blockTime":null,"detectedAt":"2030-01-01T00:00:00.000Z"}],
  "timeline":[{"status":"open","reason":null,"at":"2030-01-01T00:00:00.000Z"}]}`;
const one = (status = 200) =>
  new Response(`{"status":true,"message":"OK","isSuccess":true,"result":${CHECKOUT_JSON}}`, { status });

function scripted(answers: ((sent: Sent) => Response | Promise<Response>)[]) {
  const sent: Sent[] = [];
  const fetch = async (input: string, init: RequestInit) => {
    const s: Sent = {
      method: String(init.method),
      url: new URL(input),
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? init.body : '',
    };
    sent.push(s);
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)];
    if (answer === undefined) throw new Error('no answer scripted');
    return answer(s);
  };
  const client = new HostpayClient({
    baseUrl: 'http://hostpay.test/prefix',
    apiKey: 'hp_1',
    apiSecret: SECRET,
    bearerToken: 'tok',
    fetch,
    retryDelay: () => 0,
  });
  return { client, sent };
}

describe('client.checkouts.create', () => {
  it('sends the body as given (key order kept, amount as exact text), signed exactly as sent, with a fresh Idempotency-Key', async () => {
    const { client, sent } = scripted([() => one(201)]);
    const checkout = await client.checkouts.create({
      currency: 'EUR',
      amount: 0.1,
      orderId: 'o-1',
      metadata: { b: '1', a: '2' },
    });
    const [req] = sent;
    expect(req?.method).toBe('POST');
    expect(req?.url.pathname).toBe('/prefix/api/v1/cp/psp/hosted-pay');
    expect(req?.body).toBe('{"currency":"EUR","amount":"0.1","orderId":"o-1","metadata":{"b":"1","a":"2"}}');
    // Version 2 (the create accepts no other): the method and the path as sent are signed too.
    expect(req?.headers['signature-version']).toBe('2');
    expect(req?.headers.signature).toBe(
      protocolSignV2(SECRET, req?.headers.timestamp ?? '', 'POST', '/prefix/api/v1/cp/psp/hosted-pay', req?.body),
    );
    expect(req?.headers['content-type']).toBe('application/json');
    expect(req?.headers['idempotency-key']).toMatch(/^[A-Za-z0-9_.:-]{1,128}$/);
    expect(checkout.id).toBe('chk_1');
  });

  it('amounts in any input form go out as decimal text without an exponent; undefined fields are left out', async () => {
    const { client, sent } = scripted([() => one(201)]);
    await client.checkouts.create({ amount: 1e21, currency: 'EUR', description: undefined });
    await client.checkouts.create({ amount: 10n ** 15n, currency: 'EUR' });
    await client.checkouts.create({
      amount: { toFixed: () => '12345678901234567.123456789012345678' },
      currency: 'EUR',
    });
    expect(sent.map((s) => JSON.parse(s.body).amount)).toEqual([
      '1000000000000000000000',
      '1000000000000000',
      '12345678901234567.123456789012345678',
    ]);
    expect(sent[0]?.body).not.toContain('description');
  });

  it('each call gets its own key; retries of one call (network error, 503) reuse it', async () => {
    const { client, sent } = scripted([
      () => Promise.reject(new TypeError('fetch failed')),
      () =>
        new Response('{"status":false,"message":"busy","isSuccess":false,"error":{"code":"UNAVAILABLE"}}', {
          status: 503,
        }),
      () => one(201),
    ]);
    await client.checkouts.create({ amount: '100', currency: 'EUR' });
    expect(sent).toHaveLength(3);
    const keys = new Set(sent.map((s) => s.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    await client.checkouts.create({ amount: '100', currency: 'EUR' });
    expect(sent[3]?.headers['idempotency-key']).not.toBe(sent[0]?.headers['idempotency-key']);
  });

  it('a given idempotencyKey and merchantId are sent', async () => {
    const { client, sent } = scripted([() => one(201)]);
    await client.checkouts.create(
      { amount: '1', currency: 'EUR' },
      { idempotencyKey: 'order-17:create', merchantId: 'mer_sub' },
    );
    expect(sent[0]?.headers['idempotency-key']).toBe('order-17:create');
    expect(sent[0]?.url.searchParams.get('merchantId')).toBe('mer_sub');
  });

  it('reads every decimal field exactly, the fee preview inside included; metadata strings stay strings', async () => {
    const { client } = scripted([() => one(201)]);
    const c = await client.checkouts.create({ amount: '1', currency: 'EUR' });
    expectTypeOf(c).toEqualTypeOf<Checkout>();
    expectTypeOf(c.paymentOptions[0]!.amountDue).toEqualTypeOf<string>();
    expectTypeOf(c.fee.rate).toEqualTypeOf<string | null>();
    expect(c.amount).toBe('12345678901234567.123456789012345678');
    expect(c.paymentOptions[0]).toMatchObject({
      amountDue: '0.123456789012345678',
      rate: '0.000456789012345678',
      received: '0.1',
      remaining: '0.023456789012345678',
      fee: '0.000000000000000001',
      netAmount: '0.123456789012345677',
      confirmationsRequired: 12,
    });
    expect(c.payments[0]).toMatchObject({ amount: '0.1', index: 0, confirmations: 3 });
    expect(c.fee).toMatchObject({
      value: '1.5',
      rate: '1.0842',
      fee: '1.6263',
      tier: { fromAmount: '0', toAmount: null },
    });
    expect(c.metadata).toEqual({ amount: '7' });
  });
});

describe('client.checkouts.get, list, listAll, cancel, simulatePayment', () => {
  it('get and cancel put the id into the path as one segment; cancel sends {} with a key', async () => {
    const { client, sent } = scripted([() => one()]);
    await client.checkouts.get('chk_1');
    await client.checkouts.cancel('chk_a/b');
    expect(sent.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([
      'GET /prefix/api/v1/cp/psp/hosted-pay/chk_1',
      'POST /prefix/api/v1/cp/psp/hosted-pay/chk_a%2Fb/cancel',
    ]);
    expect(sent[0]?.body).toBe('');
    expect(sent[0]?.headers['idempotency-key']).toBeUndefined();
    expect(sent[1]?.body).toBe('{}');
    expect(sent[1]?.headers['idempotency-key']).toBeDefined();
  });

  it('an empty id is refused before anything is sent', async () => {
    const { client, sent } = scripted([() => one()]);
    for (const call of [
      () => client.checkouts.get(''),
      () => client.checkouts.cancel(''),
      () => client.checkouts.simulatePayment('', { asset: 'ETH', chain: 'ETH' }),
    ]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HostpayError);
      expect((err as HostpayError).code).toBe('INVALID_ARGUMENT');
    }
    expect(sent).toHaveLength(0);
  });

  it('simulatePayment sends amount as text, and leaves it out when not given', async () => {
    const { client, sent } = scripted([() => one()]);
    await client.checkouts.simulatePayment('chk_1', { asset: 'USDT', chain: 'TRON', amount: 40.5, confirmations: 2 });
    await client.checkouts.simulatePayment('chk_1', { asset: 'USDT', chain: 'TRON' });
    expect(sent.map((s) => s.body)).toEqual([
      '{"asset":"USDT","chain":"TRON","amount":"40.5","confirmations":2}',
      '{"asset":"USDT","chain":"TRON"}',
    ]);
    expect(sent[0]?.url.pathname).toBe('/prefix/api/v1/cp/psp/hosted-pay/chk_1/simulate-payment');
  });

  it('list sends the filters (a Date as ISO text) and returns items with nextCursor', async () => {
    const { client, sent } = scripted([
      () =>
        new Response(`{"status":true,"message":"OK","isSuccess":true,"result":[${CHECKOUT_JSON}],"nextCursor":"c2"}`),
    ]);
    const page = await client.checkouts.list({
      status: 'open',
      orderId: 'o-1',
      createdFrom: new Date('2030-01-01T00:00:00Z'),
      createdTo: '2030-02-01T00:00:00Z',
      limit: 1,
    });
    expectTypeOf(page).toEqualTypeOf<CheckoutPage>();
    expect(Object.fromEntries(sent[0]?.url.searchParams ?? [])).toEqual({
      status: 'open',
      orderId: 'o-1',
      createdFrom: '2030-01-01T00:00:00.000Z',
      createdTo: '2030-02-01T00:00:00Z',
      limit: '1',
    });
    expect(page.nextCursor).toBe('c2');
    expect(page.items[0]?.amount).toBe('12345678901234567.123456789012345678');
  });

  it('listAll follows nextCursor until it is null', async () => {
    const page = (cursor: string | null) => () =>
      new Response(
        `{"status":true,"message":"OK","isSuccess":true,"result":[${CHECKOUT_JSON}],"nextCursor":${JSON.stringify(cursor)}}`,
      );
    const { client, sent } = scripted([page('c2'), page('c3'), page(null)]);
    const ids: string[] = [];
    for await (const c of client.checkouts.listAll({ status: 'settled', limit: 1 })) ids.push(c.id);
    expect(ids).toHaveLength(3);
    expect(sent.map((s) => s.url.searchParams.get('cursor'))).toEqual([null, 'c2', 'c3']);
    expect(sent.every((s) => s.url.searchParams.get('status') === 'settled')).toBe(true);
  });

  it("amounts: 'number' types and returns numbers", async () => {
    const fetch = async () => one();
    const c = await new HostpayClient({
      baseUrl: 'http://h',
      apiKey: 'k',
      apiSecret: 's',
      bearerToken: 't',
      fetch,
      amounts: 'number',
    }).checkouts.get('chk_1');
    expectTypeOf(c.paymentOptions[0]!.amountDue).toEqualTypeOf<number>();
    expect(c.paymentOptions[0]?.amountDue).toBe(0.12345678901234568);
  });
});
