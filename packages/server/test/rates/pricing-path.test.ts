import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { DIALECTS, waitFor, type Dialect } from '../helpers.js';
import { ratesEnv, shapes, standIn, type RatesEnv } from './env.js';

/**
 * A feed's rate reaches pricing through the operator's code path: after one refresh, the next fee
 * preview converts at the provider's new price (the caches dropped as for an operator's write).
 * The refresher's own loop, once started, refreshes without being driven; /metrics reports it.
 */
describe.each(DIALECTS)('rate feeds and pricing on %s', (dialect: Dialect) => {
  let env: RatesEnv;
  let merchantId: string;
  let price = '1.0800';
  let provider: Awaited<ReturnType<typeof standIn>>;
  beforeAll(async () => {
    env = await ratesEnv(dialect);
    const ctx = { operator: 'test' };
    merchantId = (await env.services.admin.createMerchant('Shop', ctx)).id;
    await env.services.admin.setFee({ currency: 'EUR', isPercentage: true, value: '1', feeCurrency: 'USDT' }, ctx);
    provider = await standIn(() => ({ body: shapes.binance({ EURUSDT: price }) }));
  });
  afterAll(async () => {
    await provider.close();
    await env.close();
  });
  const preview = async () =>
    resultOf(await env.admin('GET', `/fees/preview?merchantId=${merchantId}&currency=EUR&amount=100`));

  it("a provider's new price shows in the next preview after one refresh", async () => {
    await env.source('bn', { kind: 'binance', baseUrl: provider.url, pairs: ['EUR/USDT'] });
    expect(await env.services.rates.refresher.refresh('bn')).toMatchObject({ ok: true });
    expect(await preview()).toMatchObject({ rate: 1.08, convertedAmount: 108 });
    price = '1.0900';
    // Cached until the feed writes: the preview still says 1.08 before the refresh.
    expect((await preview()).rate).toBe(1.08);
    expect(await env.services.rates.refresher.refresh('bn')).toMatchObject({ ok: true });
    expect(await preview()).toMatchObject({ rate: 1.09, convertedAmount: 109 });
  });

  it('the started refresher refreshes by itself; /metrics shows the source up, the rate age and the refresh time', async () => {
    const refresher = env.services.rates.spawnRefresher({ reloadMs: 50 });
    price = '1.1000';
    // The hand-driven refresher above holds the lease (three refresh intervals); this one, another instance, takes it once it expires.
    env.clock.offsetMs = 200_000;
    refresher.start();
    try {
      await waitFor(async () => (await env.rates()).get('EUR/USDT')?.rate === 1.1, 'the loop to refresh EUR/USDT');
    } finally {
      await refresher.stop();
      env.clock.offsetMs = 0;
    }
    const text = await env.app.hostpayMetrics.text();
    expect(text).toMatch(/^hostpay_rate_age_seconds\{base="EUR",quote="USDT"\} \d+$/m);
    expect(text).toMatch(/^hostpay_rate_refresh_duration_seconds_count\{source="bn"\} \d+$/m);
    expect(text).toContain('# TYPE hostpay_rate_source_up gauge');
  });
});
