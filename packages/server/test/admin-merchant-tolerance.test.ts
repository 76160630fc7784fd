import { parseExactJson } from '@hostpay/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect } from './helpers.js';
import { createAdminFixture, errorOf, type AdminFixture } from './http-helpers/admin-fixture.js';
import { checkoutCall, configureChains, resultOf as checkoutResultOf } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/** The merchant setting underpaymentTolerancePercent (spec/checkout.md, "Tolerance"): operator PATCH, view, audit, effect. */
describe.each(DIALECTS)('underpaymentTolerancePercent on %s', (dialect: Dialect) => {
  let fx: AdminFixture;
  beforeEach(async () => {
    fx = await createAdminFixture(dialect);
  });
  afterEach(() => fx.close());
  /** The result with exact decimals as their text. */
  const exact = <T>(body: string): T => (parseExactJson(body) as { result: T }).result;

  it('is 0 on a new merchant, set by PATCH as a decimal string 0..5, kept canonical, audited', async () => {
    const created = await fx.call('POST', '/merchants', { body: { name: 'Shop' } });
    const { id, underpaymentTolerancePercent } = exact<{ id: string; underpaymentTolerancePercent: string }>(
      created.body,
    );
    expect(underpaymentTolerancePercent).toBe('0');
    const patched = await fx.call('PATCH', `/merchants/${id}`, { body: { underpaymentTolerancePercent: '0.50' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.body).toContain('"underpaymentTolerancePercent":0.5');
    expect(exact<{ name: string }>(patched.body).name).toBe('Shop'); // the name is left alone
    expect(
      exact<{ underpaymentTolerancePercent: string }>((await fx.call('GET', `/merchants/${id}`)).body)
        .underpaymentTolerancePercent,
    ).toBe('0.5');
    for (const edge of ['0', '5', '5.000', '0.000000000000000001']) {
      expect(
        (await fx.call('PATCH', `/merchants/${id}`, { body: { underpaymentTolerancePercent: edge } })).statusCode,
      ).toBe(200);
    }
    // Renaming keeps the tolerance.
    await fx.call('PATCH', `/merchants/${id}`, { body: { underpaymentTolerancePercent: '1.25' } });
    const renamed = await fx.call('PATCH', `/merchants/${id}`, { body: { name: 'Renamed' } });
    expect(exact<{ underpaymentTolerancePercent: string }>(renamed.body).underpaymentTolerancePercent).toBe('1.25');

    const audit = exact<{
      items: { action: string; objectId: string; before: Record<string, string>; after: Record<string, string> }[];
    }>((await fx.call('GET', `/audit?objectId=${id}&limit=200`)).body);
    const change = audit.items.find(
      (e) => e.action === 'merchant.update' && e.after.underpaymentTolerancePercent === '1.25',
    );
    expect(change?.before.underpaymentTolerancePercent).toBe('0.000000000000000001');
  });

  it('outside 0..5, or not a decimal string, is a clear 400 and changes nothing', async () => {
    const { id } = exact<{ id: string }>((await fx.call('POST', '/merchants', { body: { name: 'Shop' } })).body);
    for (const bad of ['5.0000001', '6', '-1', '-0', '1e0', '0.5%', '', ' 1', '0.1234567890123456789']) {
      const err = errorOf(
        await fx.call('PATCH', `/merchants/${id}`, { body: { underpaymentTolerancePercent: bad } }),
        400,
        'INVALID_BODY',
      );
      expect(err.message, bad).toMatch(/underpaymentTolerancePercent/);
    }
    // A JSON number is refused by the schema (operator amounts are strings, never rounded).
    errorOf(
      await fx.call('PATCH', `/merchants/${id}`, { body: { underpaymentTolerancePercent: 0.5 } }),
      400,
      'INVALID_BODY',
    );
    expect(
      exact<{ underpaymentTolerancePercent: string }>((await fx.call('GET', `/merchants/${id}`)).body)
        .underpaymentTolerancePercent,
    ).toBe('0');
  });
});

describe('the tolerance decides when a checkout created afterwards is paid', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  const payShort = async () => {
    const created = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
      amount: '100',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    const { id } = checkoutResultOf<{ id: string }>(created);
    const paid = await checkoutCall(fx, fx.demo, 'POST', `/api/v1/cp/psp/hosted-pay/${id}/simulate-payment`, {
      asset: 'USDT',
      chain: 'TRON',
      amount: '99.5',
    });
    return checkoutResultOf<{ status: string }>(paid).status;
  };

  it('99.5 of 100 is underpaid at 0 %, settled at 0.5 %', async () => {
    expect(await payShort()).toBe('underpaid');
    await fx.services.admin.updateMerchant(
      fx.demo.merchantId,
      { underpaymentTolerancePercent: '0.5' },
      { operator: 'test' },
    );
    expect(await payShort()).toBe('settled');
  });
});
