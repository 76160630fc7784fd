import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, parseExactJson } from '@hostpay/protocol';
import { seedDemo } from '../src/demo/seed.js';
import { DIALECTS, tempServices, type Dialect } from './helpers.js';

const ctx = { operator: 'test' };

describe.each(DIALECTS)('on %s', (dialect: Dialect) => {
  let env: Awaited<ReturnType<typeof tempServices>>;
  let merchantId: string;

  beforeAll(async () => {
    env = await tempServices(dialect);
    merchantId = (await seedDemo(env.services, env.dataDir)).merchantId;
  });
  afterAll(() => env.cleanup());

  const preview = async (amount: string, currency: string, merchant = merchantId) => {
    const body = await env.services.merchant.feePreviewBody(merchant, new Decimal(amount), currency);
    return (parseExactJson(body) as { result: Record<string, unknown> }).result;
  };

  describe('fee preview over the store', () => {
    it('uses the settlement currency and its rate (EUR charged in USDT)', async () => {
      expect(await preview('100', 'EUR')).toMatchObject({
        currency: 'USDT',
        originalCurrency: 'EUR',
        rate: '1.0842',
        convertedAmount: '108.42',
        fee: '2.7105',
        scheduleSource: 'default',
      });
    });
    it('a merchant override replaces the default schedule', async () => {
      await env.services.admin.setFee({ currency: 'BTC', isPercentage: false, value: '0.0001', merchantId }, ctx);
      expect(await preview('1', 'BTC')).toMatchObject({ value: '0.0001', fee: '0.0001', scheduleSource: 'merchant' });
    });
    it('unknown currency is UNSUPPORTED_CURRENCY; known without schedule is NO_FEE_SCHEDULE', async () => {
      await expect(preview('1', 'XYZ')).rejects.toMatchObject({ code: 'UNSUPPORTED_CURRENCY', status: 422 });
      await expect(preview('1', 'USDC')).rejects.toMatchObject({ code: 'NO_FEE_SCHEDULE', status: 422 });
    });
    it('a fee currency without a rate is NO_RATE', async () => {
      await env.services.admin.setFee({ currency: 'USDC', isPercentage: true, value: '1', feeCurrency: 'TRX' }, ctx);
      await expect(preview('1', 'USDC')).rejects.toMatchObject({ code: 'NO_RATE', status: 422 });
    });
    it('an inverse rate is used when only quote->base is configured', async () => {
      await env.services.admin.setRate({ base: 'TRX', quote: 'USDC', rate: '0.25' }, ctx);
      expect(await preview('10', 'USDC')).toMatchObject({ rate: '4', convertedAmount: '40', fee: '0.4' });
    });
    it('refuses fee figures finer than the currency fees are charged in', async () => {
      await expect(
        env.services.admin.setFee({ currency: 'EUR', isPercentage: true, value: '2.125', minValue: '0.0000001' }, ctx),
      ).rejects.toThrow(/USDT.*\(6\)/);
      await expect(
        env.services.admin.setFee({ currency: 'BTC', isPercentage: false, value: '0.000000001' }, ctx),
      ).rejects.toThrow(/BTC.*\(8\)/);
      // EUR fees are charged in USDT (6 places) in the demo: 0.000001 is fine there, a percentage may be finer.
      await env.services.admin.setFee(
        { currency: 'EUR', isPercentage: true, value: '2.125', minValue: '0.000001' },
        ctx,
      );
    });

    it('a fee change is seen by the next preview (cache invalidated)', async () => {
      const before = await preview('1000', 'USDT');
      await env.services.admin.setFee(
        { currency: 'USDT', isPercentage: true, value: '2', minValue: '1', onChainFee: '1' },
        ctx,
      );
      const after = await preview('1000', 'USDT');
      expect([before.fee, after.fee]).toEqual(['16', '21']);
    });
  });
});
