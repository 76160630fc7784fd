import { Decimal } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayClient, type HostpayClientOptions, type HostpayError } from '../src/index.js';
import { startRealServer, type RealServer } from './helpers/real-server.js';

/** client.checkouts against the real server (sandbox, embedded SQLite, real socket). */
let server: RealServer;
beforeAll(async () => {
  server = await startRealServer({ checkouts: true });
});
afterAll(() => server.close());

const client = (extra: Partial<HostpayClientOptions> = {}) =>
  new HostpayClient({
    baseUrl: server.url,
    apiKey: server.demo.apiKey,
    apiSecret: server.demo.apiSecret,
    retryDelay: () => 0,
    ...extra,
  });
const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a HostpayError');
    },
    (e: HostpayError) => e,
  );

describe('client.checkouts against the real server', () => {
  it('create → partial payment → full payment: open → underpaid → settled, exact amounts', async () => {
    const c = client();
    const created = await c.checkouts.create({
      amount: 100,
      currency: 'USDT',
      orderId: 'e2e-1',
      description: 'Café 🍕',
      metadata: { cart: '3 items' },
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    expect(created).toMatchObject({
      status: 'open',
      amount: '100',
      currency: 'USDT',
      orderId: 'e2e-1',
      description: 'Café 🍕',
      metadata: { cart: '3 items' },
    });
    expect(created.url).toBe(`${server.url}/pay/${created.id}`);
    expect(created.fee.fee).toBe('2.5');
    expect(created.paymentOptions[0]).toMatchObject({
      asset: 'USDT',
      chain: 'TRON',
      amountDue: '100',
      netAmount: '97.5',
      received: '0',
    });

    const partial = await c.checkouts.simulatePayment(created.id, { asset: 'USDT', chain: 'TRON', amount: 40.1 });
    expect([partial.status, partial.reason]).toEqual(['underpaid', 'paid_partial']);
    expect(partial.paymentOptions[0]?.remaining).toBe('59.9');
    const settled = await c.checkouts.simulatePayment(created.id, { asset: 'USDT', chain: 'TRON' });
    expect(settled.status).toBe('settled');
    expect(settled.timeline.map((t) => t.status)).toEqual(['open', 'underpaid', 'processing', 'settled']);
    expect(settled.payments.map((p) => p.amount)).toEqual(['40.1', '59.9']);
    await expect(c.checkouts.get(created.id)).resolves.toMatchObject({
      status: 'settled',
      updatedAt: settled.updatedAt,
    });
  });

  it('an amount with 18 fractional digits is sent and read back exactly', async () => {
    const amount = '0.123456789012345678';
    const created = await client().checkouts.create({
      amount: { toFixed: () => amount },
      currency: 'ETH',
      paymentOptions: [{ asset: 'ETH', chain: 'ETH' }],
    });
    expect(created.amount).toBe(amount);
    // What the payer is asked for is rounded up once to ETH's display precision (8 places).
    expect(created.paymentOptions[0]?.amountDue).toBe('0.12345679');
    expect(created.fee.amount).toBe(amount);
  });

  it('cancel an open checkout; a second cancel is CHECKOUT_STATE_CONFLICT', async () => {
    const c = client();
    const created = await c.checkouts.create({
      amount: '50',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
    });
    await expect(c.checkouts.cancel(created.id)).resolves.toMatchObject({
      status: 'canceled',
      reason: 'canceled_by_merchant',
    });
    const err = await fail(c.checkouts.cancel(created.id));
    expect([err.status, err.code]).toEqual([409, 'CHECKOUT_STATE_CONFLICT']);
  });

  it('an unknown id is NOT_FOUND', async () => {
    const err = await fail(client().checkouts.get('chk_doesnotexist0000000000000000000'));
    expect([err.status, err.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('list: filters, pages and listAll', async () => {
    const c = client();
    const orderId = `e2e-list-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await c.checkouts.create({
            amount: 10 + i,
            currency: 'USDT',
            orderId,
            paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
          })
        ).id,
      );
    const first = await c.checkouts.list({ orderId, limit: 2 });
    expect(first.items.map((x) => x.id)).toEqual([ids[2], ids[1]]); // newest first
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await c.checkouts.list({ orderId, limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.items.map((x) => x.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
    const all: string[] = [];
    for await (const x of c.checkouts.listAll({ orderId, status: 'open', limit: 1 })) all.push(x.id);
    expect(all).toEqual([...ids].reverse());
    const none = await c.checkouts.list({ orderId, createdFrom: new Date(Date.now() + 3_600_000) });
    expect(none).toEqual({ items: [], nextCursor: null });
  });

  it('a create whose answer was lost is retried with the same Idempotency-Key: one checkout, the first answer', async () => {
    let lost = false;
    const keys: string[] = [];
    const fetcher = async (input: string, init: RequestInit) => {
      const res = await fetch(input, init);
      const key = (init.headers as Record<string, string>)['idempotency-key'];
      if (key !== undefined) keys.push(key);
      if (key !== undefined && !lost) {
        lost = true; // the server did the work; the answer never reaches the caller
        await res.arrayBuffer();
        throw new TypeError('fetch failed: connection reset');
      }
      return res;
    };
    const orderId = `e2e-retry-${Date.now()}`;
    const created = await client({ fetch: fetcher }).checkouts.create({
      amount: '70',
      currency: 'USDT',
      orderId,
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    const listed = await client().checkouts.list({ orderId });
    expect(listed.items.map((x) => x.id)).toEqual([created.id]);
  });

  it('the same idempotencyKey with another body is IDEMPOTENCY_CONFLICT', async () => {
    const c = client();
    const idempotencyKey = `e2e-${Date.now()}`;
    const a = await c.checkouts.create(
      { amount: '10', currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] },
      { idempotencyKey },
    );
    const again = await c.checkouts.create(
      { amount: '10', currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] },
      { idempotencyKey },
    );
    expect(again.id).toBe(a.id);
    const err = await fail(
      c.checkouts.create(
        { amount: '20', currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] },
        { idempotencyKey },
      ),
    );
    expect([err.status, err.code]).toEqual([409, 'IDEMPOTENCY_CONFLICT']);
  });

  it('signature version 2 signs the checkout routes too', async () => {
    const c = client({ signatureVersion: 2 });
    const created = await c.checkouts.create({
      amount: '30',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    await expect(c.checkouts.get(created.id)).resolves.toMatchObject({ id: created.id });
    await expect(c.checkouts.list({ status: 'open', limit: 1 })).resolves.toMatchObject({ items: [expect.anything()] });
  });

  it('server-side validation errors come back with their codes', async () => {
    const c = client();
    expect((await fail(c.checkouts.create({ amount: '-1', currency: 'USDT' }))).code).toBe('INVALID_AMOUNT');
    expect((await fail(c.checkouts.create({ amount: '1', currency: 'USDT', successUrl: 'ftp://x' }))).code).toBe(
      'INVALID_URL',
    );
  });
});

describe('client.summary against the real server', () => {
  it("today's settled volume grows by exactly what settled; balances and attention come typed", async () => {
    const c = client();
    const usdt = (s: Awaited<ReturnType<typeof c.summary>>) =>
      new Decimal(s.settled.today.find((v) => v.currency === 'USDT')?.amount ?? '0');
    const before = await c.summary();
    for (const amount of ['10.1', '10.2']) {
      const created = await c.checkouts.create({
        amount,
        currency: 'USDT',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      });
      expect((await c.checkouts.simulatePayment(created.id, { asset: 'USDT', chain: 'TRON' })).status).toBe('settled');
    }
    const after = await c.summary();
    // Exact strings: 10.1 + 10.2 in floats would be 20.299999999999997.
    expect(usdt(after).minus(usdt(before)).toFixed()).toBe('20.3');
    expect(typeof after.balances[0]?.balance).toBe('string');
    expect(after.settled.monthFrom).toMatch(/-01T00:00:00\.000Z$/);
    expect(Array.isArray(after.attention)).toBe(true);
  });
});

describe('client.checkoutWebhookDeliveries against the real server', () => {
  it('a page of attempts (none without endpoints); an unknown checkout is NOT_FOUND; no id is refused locally', async () => {
    const c = client();
    const created = await c.checkouts.create({
      amount: '5',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    expect(await c.checkoutWebhookDeliveries(created.id, { limit: 10 })).toEqual({ items: [], nextCursor: null });
    expect((await fail(c.checkoutWebhookDeliveries('chk_nobody'))).code).toBe('NOT_FOUND');
    expect((await fail(c.checkoutWebhookDeliveries(''))).code).toBe('INVALID_ARGUMENT');
  });
});
