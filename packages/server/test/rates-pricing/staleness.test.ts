import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect } from '../helpers.js';
import { CHECKOUTS, createPricingWorld, errorBody, exact, type OptionView, type PricingWorld } from './world.js';

const ctx = { operator: 'pricing-test' };
type Created = { id: string; paymentOptions: OptionView[] };
const assets = (c: Created) => c.paymentOptions.map((o) => `${o.asset}/${o.chain}`);

/**
 * Never stale (issue 27): a rate older than its maximum age prices nothing. An option that needs
 * it is dropped, a create left with none answers 503 RATE_STALE, a fee preview needing it too;
 * a fresh rate brings them back; a checkout already created keeps the rate it locked.
 */
describe.each(DIALECTS)('stale rates on %s', (dialect: Dialect) => {
  let w: PricingWorld;
  beforeAll(async () => {
    w = await createPricingWorld(dialect);
    // The fee of an EUR checkout is charged in USDT (demo): a BTC option converts it at BTC/USDT.
    await w.setRate('BTC', 'USDT', '90000', { maxAgeSeconds: null, source: 'manual' });
  });
  afterAll(() => w?.close());

  const create = (body: Record<string, unknown>) =>
    w.merchant('POST', CHECKOUTS, { amount: '100', currency: 'EUR', ...body });

  it('a rate exactly its maximum age old is quoted; one second older, the option is dropped (default offer)', async () => {
    w.clock.offsetMs = 0;
    await w.setRate('EUR', 'BTC', '0.0000102', { fetchedAtMs: w.now() - 60_000, maxAgeSeconds: 60 });
    const atLimit = await create({});
    expect(atLimit.statusCode, atLimit.body).toBe(201);
    expect(assets(exact<Created>(atLimit))).toContain('BTC/BTC');
    // Time passes, nothing is written: the cached quote is judged again, now with age 61.
    w.clock.offsetMs = 1000;
    const past = await create({});
    expect(past.statusCode, past.body).toBe(201);
    const offered = assets(exact<Created>(past));
    expect(offered).not.toContain('BTC/BTC');
    expect(offered).toContain('USDT/TRON'); // EUR/USDT is the operator's pinned rate: never stale
  });

  it('named options that need a stale rate: 503 RATE_STALE with Retry-After, the pair and its age', async () => {
    w.clock.offsetMs = 0;
    await w.setRate('EUR', 'BTC', '0.0000102', { fetchedAtMs: w.now() - 61_000, maxAgeSeconds: 60 });
    const res = await create({ paymentOptions: [{ asset: 'BTC', chain: 'BTC' }] });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('10');
    const err = errorBody(res);
    expect(err.code).toBe('RATE_STALE');
    expect(err.message).toContain('EUR/BTC');
    expect(err.details).toMatchObject({
      pair: 'EUR/BTC',
      ageSeconds: 61,
      maxAgeSeconds: 60,
      pairs: [{ pair: 'EUR/BTC', ageSeconds: 61, maxAgeSeconds: 60 }],
    });
    expect(err.details.refused).toEqual([expect.stringMatching(/^BTC on BTC: the EUR\/BTC rate is 61 s old/)]);
    // With an option refused for another reason too, a fresh rate would not help: the old error stays.
    const mixed = await create({
      paymentOptions: [
        { asset: 'BTC', chain: 'BTC' },
        { asset: 'ETH', chain: 'ETH' },
      ],
    });
    expect(mixed.statusCode, mixed.body).toBe(422);
    expect(errorBody(mixed).code).toBe('NO_PAYABLE_OPTION');
  });

  it('every stale pair is named: the payer rate and the fee rate', async () => {
    w.clock.offsetMs = 0;
    await w.setRate('EUR', 'BTC', '0.0000102', { fetchedAtMs: w.now() - 100_000, maxAgeSeconds: 60 });
    await w.setRate('BTC', 'USDT', '90000', { fetchedAtMs: w.now() - 45_000, maxAgeSeconds: 30 });
    const res = await create({ paymentOptions: [{ asset: 'BTC', chain: 'BTC' }] });
    expect(res.statusCode, res.body).toBe(503);
    expect(errorBody(res).details.pairs).toEqual([
      { pair: 'EUR/BTC', ageSeconds: 100, maxAgeSeconds: 60 },
      // Needed as USDT → BTC, the inverse of the stored BTC/USDT (same age).
      { pair: 'USDT/BTC', ageSeconds: 45, maxAgeSeconds: 30 },
    ]);
    await w.setRate('BTC', 'USDT', '90000', { maxAgeSeconds: null, source: 'manual' });
  });

  it('a default offer left with nothing because of stale rates is 503 RATE_STALE, and a fresh rate brings the option back', async () => {
    w.clock.offsetMs = 0;
    const { admin } = w.services;
    const merchant = await admin.createMerchant('Bitcoin only', ctx);
    await admin.createWallet({ merchantId: merchant.id, asset: 'BTC', chain: 'BTC', active: true }, ctx);
    const created = await admin.createApiKey(merchant.id, {}, ctx);
    const key = { apiKey: created.apiKey, apiSecret: created.apiSecret, merchantId: merchant.id };
    const body = { amount: '100', currency: 'EUR' };
    await w.setRate('EUR', 'BTC', '0.0000102', { fetchedAtMs: w.now() - 120_000, maxAgeSeconds: 60 });
    const stale = await w.merchantAs(key, 'POST', CHECKOUTS, body);
    expect(stale.statusCode, stale.body).toBe(503);
    expect(errorBody(stale).details).toMatchObject({ pair: 'EUR/BTC', ageSeconds: 120, maxAgeSeconds: 60 });
    // The feed answers again: the next create offers BTC, at the new rate.
    await w.setRate('EUR', 'BTC', '0.0000105', { maxAgeSeconds: 60 });
    const fresh = await w.merchantAs(key, 'POST', CHECKOUTS, body);
    expect(fresh.statusCode, fresh.body).toBe(201);
    const [option] = exact<Created>(fresh).paymentOptions;
    expect(option).toMatchObject({ asset: 'BTC', rate: '0.0000105', amountDue: '0.00105', rateSource: 'test-feed' });
    expect(option!.rateAt).toBe(new Date(w.now()).toISOString());
  });

  it('a created checkout keeps its locked rate, source and time when the rate changes and then goes stale', async () => {
    w.clock.offsetMs = 0;
    const quotedAt = w.now() - 5_000;
    await w.setRate('EUR', 'BTC', '0.0000102', { fetchedAtMs: quotedAt, maxAgeSeconds: 60, source: 'feed-a' });
    const res = await create({ paymentOptions: [{ asset: 'BTC', chain: 'BTC' }] });
    expect(res.statusCode, res.body).toBe(201);
    const checkout = exact<Created>(res);
    const locked = checkout.paymentOptions[0]!;
    expect(locked).toMatchObject({
      rate: '0.0000102',
      amountDue: '0.00102',
      rateSource: 'feed-a',
      rateAt: new Date(quotedAt).toISOString(),
      rateSpreadPercent: '0',
    });
    await w.setRate('EUR', 'BTC', '0.0000200', { maxAgeSeconds: 60, source: 'feed-b' });
    w.clock.offsetMs = 10 * 60_000; // the new rate is stale now too
    const read = await w.merchant('GET', `${CHECKOUTS}/${checkout.id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(exact<Created>(read).paymentOptions[0]).toEqual(locked);
    expect(exact<{ status: string }>(read).status).toBe('open');
  });

  it("an operator's settle preview of an asset that was not offered needs today's rate: stale is 503 RATE_STALE", async () => {
    w.clock.offsetMs = 0;
    // A USDT checkout paid in TRX, which it did not offer: in review (wrong_asset).
    const created = await w.merchant('POST', CHECKOUTS, {
      amount: '10',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    const review = { ...exact<Created>(created), currency: 'USDT' };
    const reported = await w.admin('POST', '/transfers', {
      body: {
        chain: 'TRON',
        txHash: 'f'.repeat(64),
        index: 0,
        toAddress: review.paymentOptions[0]!.address,
        asset: 'TRX',
        amount: '40',
        confirmations: 30,
      },
    });
    expect(reported.statusCode, reported.body).toBeLessThan(300);
    const preview = () => w.admin('GET', `/checkouts/${review.id}/settle-preview`);
    await w.setRate(review.currency, 'TRX', '3.5', { fetchedAtMs: w.now() - 90_000, maxAgeSeconds: 60 });
    const stale = await preview();
    expect(stale.statusCode, stale.body).toBe(503);
    expect(stale.headers['retry-after']).toBe('10');
    expect(errorBody(stale).details).toMatchObject({ pair: `${review.currency}/TRX`, ageSeconds: 90 });
    await w.setRate(review.currency, 'TRX', '3.5', { maxAgeSeconds: 60 });
    const fresh = await preview();
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(exact<{ value: { rate: string } }>(fresh).value.rate).toBe('3.5');
  });

  it('the fee preview (merchant, cached, and operator) answers 503 RATE_STALE once its conversion rate is past its age, and recovers', async () => {
    w.clock.offsetMs = 0;
    const url = '/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=EUR';
    const operatorUrl = `/fees/preview?merchantId=${w.demo.merchantId}&currency=EUR&amount=100`;
    // EUR fees are charged in USDT: a feed's EUR/USDT replaces the demo's pinned one.
    await w.setRate('EUR', 'USDT', '1.0842', { maxAgeSeconds: 30 });
    const first = await w.merchant('GET', url);
    expect(first.statusCode, first.body).toBe(200);
    w.clock.offsetMs = 30_000; // exactly the maximum age: still quoted (the answer comes from the cache)
    expect((await w.merchant('GET', url)).body).toBe(first.body);
    expect((await w.admin('GET', operatorUrl)).statusCode).toBe(200);
    w.clock.offsetMs = 31_000;
    for (const res of [await w.merchant('GET', url), await w.admin('GET', operatorUrl)]) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('10');
      expect(errorBody(res)).toMatchObject({
        code: 'RATE_STALE',
        details: { pair: 'EUR/USDT', ageSeconds: 31, maxAgeSeconds: 30 },
      });
    }
    // A checkout's fee is that preview: no create either, whatever the options.
    const create503 = await create({ paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] });
    expect(create503.statusCode, create503.body).toBe(503);
    expect(errorBody(create503).details).toMatchObject({ pair: 'EUR/USDT' });
    await w.setRate('EUR', 'USDT', '1.0842', { maxAgeSeconds: 30 });
    expect((await w.merchant('GET', url)).statusCode).toBe(200);
    expect((await w.admin('GET', operatorUrl)).statusCode).toBe(200);
    await w.setRate('EUR', 'USDT', '1.0842', { maxAgeSeconds: null, source: 'demo-pin' });
  });
});
