import { Decimal, parseExactJson } from '@hostpay/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo/seed.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { checkoutCall } from '../http-helpers/checkouts.js';
import type { HttpFixture, TestKey } from '../http-helpers/fixture.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { ratesEnv, shapes, standIn, type RatesEnv } from './env.js';

const CHECKOUTS = '/api/v1/cp/psp/hosted-pay';
const MAX_AGE = 120;

interface Option {
  asset: string;
  rate: string;
  amountDue: string;
  rateSource: string | null;
  rateAt: string | null;
}

/**
 * Issue 27's done-criterion, end to end on a sandbox server: a source configured through the
 * operator API, pointed at a stand-in for Coinbase on 127.0.0.1; a price change shows in the next
 * checkout after one refresh; the provider fails, then goes away (its port closed, connections
 * refused) and checkouts are still created until the rate is exactly its maximum age old, then
 * refused with 503 RATE_STALE one second later; the provider comes back at its address and the
 * next refresh makes checkouts possible again.
 */
describe.each(DIALECTS)('rates done-criterion on %s', (dialect: Dialect) => {
  let env: RatesEnv;
  let server: Awaited<ReturnType<typeof standIn>>;
  let key: TestKey;
  let price = '58000';
  beforeAll(async () => {
    env = await ratesEnv(dialect, { stillClock: true, timeoutMs: 500 });
    const demo = await seedDemo(env.services, env.dataDir);
    key = { apiKey: demo.apiKey, apiSecret: demo.apiSecret, merchantId: demo.merchantId };
    // Coinbase's documented shape: one request per base currency, the quotes as decimal strings.
    server = await standIn((u) => ({
      body: shapes.coinbase(u.searchParams.get('currency')!, { EUR: price, USDT: price }),
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await env?.close();
  });

  const create = (orderId: string): Promise<LightMyRequestResponse> =>
    checkoutCall({ app: env.app, now: env.now } as unknown as HttpFixture, key, 'POST', CHECKOUTS, {
      amount: 100,
      currency: 'EUR',
      orderId,
      // BTC only: the demo's USDT options are priced from pinned rates and never go stale.
      paymentOptions: [{ asset: 'BTC', chain: 'BTC' }],
    });
  const btcOption = (res: LightMyRequestResponse): Option => {
    expect(res.statusCode, res.body).toBe(201);
    return (parseExactJson(res.body) as { result: { paymentOptions: Option[] } }).result.paymentOptions[0]!;
  };
  const refresh = () => env.services.rates.refresher.refresh('cb');
  /** 1 EUR in BTC at a BTC/EUR price (the inverse, as pricing derives it; the demo merchant has no spread). */
  const eurInBtc = (p: string) => new Decimal(1).dividedBy(p).toDecimalPlaces(18, Decimal.ROUND_HALF_UP).toFixed();

  it('a price change shows after one refresh; stale exactly past maxAge → 503 RATE_STALE; back after the provider returns', async () => {
    const view = resultOf(
      await env.admin('PUT', '/rate-sources/cb', {
        body: {
          kind: 'coinbase',
          baseUrl: server.url,
          pairs: ['BTC/EUR', 'BTC/USDT'],
          refreshSeconds: 30,
          maxAgeSeconds: MAX_AGE,
        },
      }),
    );
    expect(view).toMatchObject({ id: 'cb', kind: 'coinbase' });

    // (a) The provider's price, then a change of it, each in the next checkout after one refresh.
    expect(await refresh()).toMatchObject({ ok: true });
    let o = btcOption(await create('done-1'));
    expect(o).toMatchObject({ rate: eurInBtc('58000'), rateSource: 'cb', rateAt: new Date(env.now()).toISOString() });
    price = '60000';
    env.clock.offsetMs = 30_000;
    // Before the refresh the stored rate is unchanged.
    expect(btcOption(await create('done-2')).rate).toBe(eurInBtc('58000'));
    expect(await refresh()).toMatchObject({ ok: true });
    const fetchedAt = env.now();
    o = btcOption(await create('done-3'));
    expect(o).toMatchObject({ rate: eurInBtc('60000'), rateSource: 'cb', rateAt: new Date(fetchedAt).toISOString() });
    expect(o.amountDue).toBe('0.00166667');

    // (b) The provider answers 500, then is unreachable (its address refuses connections): the
    // rate ages, usable up to its maximum age, however many refreshes fail meanwhile.
    server.set(() => ({ status: 500, body: 'internal error' }));
    env.clock.offsetMs = 30_000 + 30_000;
    expect(await refresh()).toMatchObject({ ok: false, error: 'HTTP 500' });
    const port = server.port;
    await server.close();
    env.clock.offsetMs = 30_000 + 60_000;
    expect(await refresh()).toMatchObject({ ok: false, error: 'connection refused (ECONNREFUSED)' });
    expect(btcOption(await create('done-4')).rateAt).toBe(new Date(fetchedAt).toISOString());
    env.clock.offsetMs = 30_000 + MAX_AGE * 1000;
    expect(await refresh()).toMatchObject({ ok: false, error: 'connection refused (ECONNREFUSED)' });
    const health = resultOf(await env.admin('GET', '/rate-sources/cb')).health;
    expect(health).toMatchObject({
      state: 'down',
      lastError: 'connection refused (ECONNREFUSED)',
      lastErrorAt: new Date(env.now()).toISOString(),
      lastSuccessAt: new Date(fetchedAt).toISOString(),
    });
    // Exactly the maximum age: still offered, at the last price the provider gave.
    o = btcOption(await create('done-5'));
    expect(o).toMatchObject({ rate: eurInBtc('60000'), rateAt: new Date(fetchedAt).toISOString() });
    env.clock.offsetMs = 30_000 + (MAX_AGE + 1) * 1000;
    const refused = await create('done-6');
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.headers['retry-after']).toBe('10');
    const body = JSON.parse(refused.body) as { error: { code: string; details: Record<string, unknown> } };
    expect(body.error.code).toBe('RATE_STALE');
    expect(body.error.details).toMatchObject({ pair: 'EUR/BTC', ageSeconds: MAX_AGE + 1, maxAgeSeconds: MAX_AGE });

    // (c) The provider is back at its address: the next refresh, and checkouts are created again at its price.
    price = '61000';
    server = await standIn(
      (u) => ({ body: shapes.coinbase(u.searchParams.get('currency')!, { EUR: price, USDT: price }) }),
      { port },
    );
    expect(await refresh()).toMatchObject({ ok: true });
    o = btcOption(await create('done-7'));
    expect(o).toMatchObject({ rate: eurInBtc('61000'), rateSource: 'cb', rateAt: new Date(env.now()).toISOString() });
    expect(resultOf(await env.admin('GET', '/rate-sources/cb')).health.state).toBe('up');
  });
});
