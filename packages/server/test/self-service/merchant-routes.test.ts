import { parseExactJson } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';
import { expectError } from '../http-helpers/requests.js';
import { drain, merchantCall, Receiver } from '../http-helpers/webhooks.js';
import { describeStores } from '../helpers.js';

/**
 * The dashboard's two merchant routes over signed requests: GET /api/v1/cp/summary and a
 * checkout's webhook deliveries (only that checkout's events, newest first, paginated; another
 * merchant's checkout 404; each route's scope enforced).
 */
describeStores('dashboard merchant routes', (dialect) => {
  let fx: HttpFixture;
  let rx: Receiver;
  const C = '/api/v1/cp/psp/hosted-pay';
  const deliveries = (id: string, query = '') => `${C}/${id}/webhook-deliveries${query}`;

  interface Attempt {
    id: string;
    eventId: string;
    eventType: string;
    endpointId: string;
    attemptedAt: string;
    succeeded: boolean;
  }

  async function paidCheckout(amount: string): Promise<string> {
    const created = resultOf<{ id: string }>(
      await checkoutCall(fx, fx.demo, 'POST', C, {
        amount,
        currency: 'USDT',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      }),
    );
    const paid = await checkoutCall(fx, fx.demo, 'POST', `${C}/${created.id}/simulate-payment`, {
      asset: 'USDT',
      chain: 'TRON',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    return created.id;
  }

  let first: string;
  let second: string;
  let endpointId: string;

  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
    rx = await Receiver.start();
    const ep = await merchantCall(fx, fx.demo, 'POST', '/api/v1/cp/webhook-endpoints', { url: rx.url });
    expect(ep.statusCode, ep.body).toBe(201);
    endpointId = resultOf<{ id: string }>(ep).id;
    first = await paidCheckout('12.5');
    second = await paidCheckout('3.25');
    await drain(fx.services.webhooks.worker);
  }, 60_000);
  afterAll(async () => {
    await fx?.close();
    await rx?.close();
  });

  describe('GET /api/v1/cp/summary', () => {
    it('answers a signed request with balances, settled volume and attention, amounts exact', async () => {
      const res = await merchantCall(fx, fx.demo, 'GET', '/api/v1/cp/summary');
      expect(res.statusCode, res.body).toBe(200);
      const s = resultOf<any>(res);
      expect(s.settled.today).toEqual([{ currency: 'USDT', amount: '15.75', count: '2' }]);
      expect(s.settled.month).toEqual(s.settled.today);
      expect(s.attention).toEqual([]);
      const tron = s.balances.find((b: { asset: string; chain: string }) => b.asset === 'USDT' && b.chain === 'TRON');
      expect(tron.balance).toMatch(/^\d+(\.\d+)?$/);
      expect(Object.keys(tron).sort()).toEqual(['asset', 'balance', 'chain', 'freezeAmount', 'walletId']);
    });

    it('needs checkout:read', async () => {
      const key = await fx.createKey(fx.demo.merchantId, { scopes: ['wallets:read'] });
      expectError(await merchantCall(fx, key, 'GET', '/api/v1/cp/summary'), 403, 'SCOPE_MISSING');
    });

    it("another merchant's summary is its own (nothing of the demo merchant's)", async () => {
      const other = await fx.createKey(await fx.createMerchant('Other'));
      const s = resultOf<any>(await merchantCall(fx, other, 'GET', '/api/v1/cp/summary'));
      expect(s.settled.today).toEqual([]);
      expect(s.attention).toEqual([]);
    });
  });

  describe('GET /api/v1/cp/psp/hosted-pay/{id}/webhook-deliveries', () => {
    it("lists the attempts of this checkout's events only, newest first, with their endpoint", async () => {
      const res = await merchantCall(fx, fx.demo, 'GET', deliveries(first));
      expect(res.statusCode, res.body).toBe(200);
      const body = JSON.parse(res.body) as { result: Attempt[]; nextCursor: string | null };
      const attempts = body.result;
      const events = await fx.services.store.db
        .selectFrom('events')
        .select(['id', 'type', 'data'])
        .where('merchant_id', '=', fx.demo.merchantId)
        .execute();
      const mine = events.filter((e) => e.data.includes(first)).map((e) => e.id);
      // Every event about the checkout was delivered once, and nothing else is listed.
      expect(new Set(attempts.map((a) => a.eventId))).toEqual(new Set(mine));
      expect(attempts).toHaveLength(mine.length);
      expect(attempts.map((a) => a.eventType)).toEqual(
        expect.arrayContaining(['checkout.created', 'checkout.settled', 'wallet.balance_changed']),
      );
      expect(attempts.every((a) => a.endpointId === endpointId && a.succeeded)).toBe(true);
      const times = attempts.map((a) => `${a.attemptedAt} ${a.id}`);
      expect(times).toEqual([...times].sort().reverse());
      expect(body.nextCursor).toBeNull();
      // The other checkout's attempts are its own.
      const other = resultOf<Attempt[]>(await merchantCall(fx, fx.demo, 'GET', deliveries(second)));
      expect(other.length).toBeGreaterThan(0);
      expect(other.some((a) => attempts.some((b) => b.id === a.id))).toBe(false);
    });

    it('pages with limit and cursor like other lists', async () => {
      const all = resultOf<Attempt[]>(await merchantCall(fx, fx.demo, 'GET', deliveries(first)));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`;
        const res = await merchantCall(fx, fx.demo, 'GET', deliveries(first, query));
        expect(res.statusCode, res.body).toBe(200);
        const page = parseExactJson(res.body) as { result: Attempt[]; nextCursor: string | null };
        expect(page.result.length).toBeLessThanOrEqual(2);
        seen.push(...page.result.map((a) => a.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(seen).toEqual(all.map((a) => a.id));
    });

    it("another merchant's checkout is 404, like a missing one", async () => {
      const other: TestKey = await fx.createKey(await fx.createMerchant('Other 2'));
      expectError(await merchantCall(fx, other, 'GET', deliveries(first)), 404, 'NOT_FOUND');
      expectError(await merchantCall(fx, fx.demo, 'GET', deliveries('chk_missing')), 404, 'NOT_FOUND');
    });

    it('needs webhooks:write', async () => {
      const key = await fx.createKey(fx.demo.merchantId, { scopes: ['checkout:read'] });
      expectError(await merchantCall(fx, key, 'GET', deliveries(first)), 403, 'SCOPE_MISSING');
    });
  });
});
