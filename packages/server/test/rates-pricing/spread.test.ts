import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect } from '../helpers.js';
import { errorOf } from '../http-helpers/admin-fixture.js';
import { CHECKOUTS, createPricingWorld, exact, type OptionView, type PricingWorld } from './world.js';

type Created = { id: string; paymentOptions: OptionView[] };
const option = (c: Created, asset: string) => c.paymentOptions.find((o) => o.asset === asset)!;

/**
 * The operators' rate spread (issue 27): a default (PUT /admin/v1/rate-spread) and a merchant's
 * own (PATCH /admin/v1/merchants/{id}), added to the payer's rate of every converted option,
 * exactly, and shown with the rate's source and time on each option.
 */
describe.each(DIALECTS)('rate spread on %s', (dialect: Dialect) => {
  let w: PricingWorld;
  beforeAll(async () => {
    w = await createPricingWorld(dialect);
    await w.setRate('BTC', 'USDT', '90000', { maxAgeSeconds: null, source: 'manual' });
    await w.setRate('EUR', 'BTC', '0.0000123457', { maxAgeSeconds: 600, source: 'feed-x' });
  });
  afterAll(() => w?.close());

  const createEur = async () => {
    const res = await w.merchant('POST', CHECKOUTS, {
      amount: '100',
      currency: 'EUR',
      paymentOptions: [
        { asset: 'BTC', chain: 'BTC' },
        { asset: 'USDT', chain: 'TRON' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    return exact<Created>(res);
  };

  it('the default is 0 until an operator sets it (0 to 10, 4 fractional digits, a string), audited', async () => {
    expect(exact(await w.admin('GET', '/rate-spread'))).toEqual({ percent: '0', updatedAt: null });
    for (const bad of ['10.0001', '11', '-1', '1.23456', '', ' 1', '1e0', '01']) {
      const err = errorOf(await w.admin('PUT', '/rate-spread', { body: { percent: bad } }), 400, 'INVALID_BODY');
      expect(err.message, bad).toMatch(/percent/);
    }
    errorOf(await w.admin('PUT', '/rate-spread', { body: { percent: 1.5 } }), 400, 'INVALID_BODY');
    const set = await w.admin('PUT', '/rate-spread', { body: { percent: '1.50' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(exact<{ percent: string }>(set).percent).toBe('1.5');
    expect(exact<{ percent: string }>(await w.admin('GET', '/rate-spread')).percent).toBe('1.5');
    const audit = exact<{ items: { action: string; operator: string; before: unknown; after: { percent: string } }[] }>(
      await w.admin('GET', '/audit?action=rate_spread.set'),
    );
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]).toMatchObject({ before: null, after: { percent: '1.5' } });
  });

  it('is applied exactly to the payer rate of converted options (not to the fee conversion), amountDue rounded up', async () => {
    const c = await createEur();
    // 0.0000123457 × 1.015 = 0.0000125308855; × 100 = 0.00125308855 → up to 8 places.
    expect(option(c, 'BTC')).toMatchObject({
      rate: '0.0000125308855',
      amountDue: '0.00125309',
      rateSource: 'feed-x',
      rateSpreadPercent: '1.5',
      // The fee, 2.7105 USDT (2.5 % of 100 EUR at the pinned 1.0842), at 1/90000 without the spread, half up.
      fee: '0.00003012',
      netAmount: '0.00122297',
    });
    // 1.0842 × 1.015 = 1.100463; the fee is charged in USDT itself.
    expect(option(c, 'USDT')).toMatchObject({
      rate: '1.100463',
      amountDue: '110.0463',
      rateSource: 'demo-pin',
      rateSpreadPercent: '1.5',
      fee: '2.7105',
      netAmount: '107.3358',
    });
  });

  it('is not applied when nothing is converted (the asset is the currency)', async () => {
    const res = await w.merchant('POST', CHECKOUTS, {
      amount: '100',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const o = exact<Created>(res).paymentOptions[0]!;
    expect(o).toMatchObject({ rate: '1', amountDue: '100', rateSource: 'identity', rateSpreadPercent: '0' });
    expect(o.rateAt).toBe(new Date(w.now()).toISOString());
  });

  it("a merchant's own spread overrides the default; null gives it back; created checkouts keep theirs", async () => {
    const before = await createEur();
    const merchant = `/merchants/${w.demo.merchantId}`;
    for (const bad of ['10.5', '-0.1', '0.00001', 'x']) {
      errorOf(await w.admin('PATCH', merchant, { body: { rateSpreadPercent: bad } }), 400, 'INVALID_BODY');
    }
    const own = await w.admin('PATCH', merchant, { body: { rateSpreadPercent: '0.25' } });
    expect(own.statusCode, own.body).toBe(200);
    expect(exact<{ rateSpreadPercent: string }>(own).rateSpreadPercent).toBe('0.25');
    const mine = await createEur();
    // 0.0000123457 × 1.0025 = 0.00001237656425 → × 100, up to 8 places; 1.0842 × 1.0025 = 1.0869105.
    expect(option(mine, 'BTC')).toMatchObject({ rate: '0.00001237656425', amountDue: '0.00123766' });
    expect(option(mine, 'USDT')).toMatchObject({
      rate: '1.0869105',
      amountDue: '108.69105',
      rateSpreadPercent: '0.25',
    });
    // A change of the default does not touch a merchant with its own.
    await w.admin('PUT', '/rate-spread', { body: { percent: '3' } });
    expect(option(await createEur(), 'USDT').rateSpreadPercent).toBe('0.25');
    const inherit = await w.admin('PATCH', merchant, { body: { rateSpreadPercent: null } });
    expect(exact<{ rateSpreadPercent: null }>(inherit).rateSpreadPercent).toBeNull();
    expect(option(await createEur(), 'USDT')).toMatchObject({ rate: '1.116726', rateSpreadPercent: '3' });
    // The first checkout still shows what it was created with.
    const read = await w.merchant('GET', `${CHECKOUTS}/${before.id}`);
    expect(exact<Created>(read).paymentOptions).toEqual(before.paymentOptions);
    await w.admin('PUT', '/rate-spread', { body: { percent: '1.5' } });
  });
});
