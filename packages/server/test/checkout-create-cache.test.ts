import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCall, configureChains, resultOf } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { describeStores } from './helpers.js';

/**
 * Create answers from what it wrote (no read-back) and from cached facts (fee schedule, rates,
 * the merchant's payable options). These tests pin both: the answer is what a GET reads, and
 * every write that changes a fact is seen by the very next create.
 */
interface Created {
  id: string;
  fee: { fee: string };
  paymentOptions: { asset: string; chain: string; amountDue: string; rate: string }[];
}

describeStores('checkout create cache', (dialect) => {
  let fx: HttpFixture;
  const ctx = { operator: 'test' };
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  const create = async (body: Record<string, unknown>): Promise<Created> => {
    const res = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', body);
    expect(res.statusCode, res.body).toBe(201);
    return resultOf<Created>(res);
  };

  describe('checkout create', () => {
    it('answers exactly what a GET of the checkout reads back', async () => {
      for (const body of [
        { amount: '12.5', currency: 'EUR', orderId: 'o-1', description: 'ünïcode ✓' },
        { amount: 100, currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] },
      ]) {
        const created = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', body);
        expect(created.statusCode, created.body).toBe(201);
        const { id } = resultOf<Created>(created);
        const read = await checkoutCall(fx, fx.demo, 'GET', `/api/v1/cp/psp/hosted-pay/${id}`);
        expect(read.statusCode).toBe(200);
        // Byte for byte: field order, exact decimals, timestamps, addresses.
        const result = (body: string) => body.slice(body.indexOf('"result":'));
        expect(result(read.body)).toBe(result(created.body));
        // The answer is the envelope around the very text the checkout.created event holds.
        expect(created.body.slice(0, created.body.indexOf('"result":'))).toBe(
          '{"status":true,"message":"checkout created","isSuccess":true,',
        );
        const event = await fx.services.store.db
          .selectFrom('events')
          .select('data')
          .where('type', '=', 'checkout.created')
          .where('data', 'like', `%${id}%`)
          .executeTakeFirstOrThrow();
        expect(event.data).toBe(`{"object":${result(created.body).slice('"result":'.length, -1)}}`);
      }
    });

    it('sees a rate change on the next create', async () => {
      const admin = fx.services.admin;
      await admin.setRate({ base: 'EUR', quote: 'USDT', rate: '1.1' }, ctx);
      const before = await create({ amount: 10, currency: 'EUR', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] });
      expect(before.paymentOptions[0]!.amountDue).toBe('11');
      await admin.setRate({ base: 'EUR', quote: 'USDT', rate: '1.2' }, ctx);
      const after = await create({ amount: 10, currency: 'EUR', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] });
      expect(after.paymentOptions[0]!.amountDue).toBe('12');
    });

    it('sees a fee schedule change on the next create', async () => {
      const admin = fx.services.admin;
      await admin.setFee({ currency: 'USDT', merchantId: fx.demo.merchantId, isPercentage: false, value: '1' }, ctx);
      expect(
        (await create({ amount: 50, currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] })).fee.fee,
      ).toBe('1');
      await admin.setFee({ currency: 'USDT', merchantId: fx.demo.merchantId, isPercentage: false, value: '2' }, ctx);
      expect(
        (await create({ amount: 50, currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] })).fee.fee,
      ).toBe('2');
    });

    it("sees a wallet switched off and on in the merchant's default options", async () => {
      const admin = fx.services.admin;
      const options = async () =>
        (await create({ amount: 5, currency: 'USDT' })).paymentOptions.map((o) => `${o.asset}/${o.chain}`);
      const first = await options();
      expect(first).toContain('USDT/TRON');
      const wallet = await fx.services.store.db
        .selectFrom('wallets')
        .innerJoin('assets', 'assets.id', 'wallets.asset_id')
        .innerJoin('chains', 'chains.id', 'wallets.chain_id')
        .select('wallets.id')
        .where('wallets.merchant_id', '=', fx.demo.merchantId)
        .where('assets.symbol', '=', 'USDT')
        .where('chains.symbol', '=', 'TRON')
        .executeTakeFirstOrThrow();
      await admin.setWalletActive(wallet.id, false, ctx);
      expect(await options()).not.toContain('USDT/TRON');
      await admin.setWalletActive(wallet.id, true, ctx);
      expect(await options()).toEqual(first);
    });
  });
});
