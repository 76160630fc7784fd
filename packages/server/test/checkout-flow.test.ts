import { Decimal } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureChains, checkoutCall, resultOf } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError } from './http-helpers/requests.js';
import { seedDemoCheckouts } from '../src/demo/checkouts.js';
import { describeStores } from './helpers.js';

interface CheckoutResult {
  id: string;
  status: string;
  reason: string | null;
  url: string;
  amount: string;
  fee: Record<string, unknown>;
  paymentOptions: {
    asset: string;
    chain: string;
    address: string;
    amountDue: string;
    received: string;
    netAmount: string;
    fee: string;
    remaining: string;
  }[];
  payments: { amount: string; confirmed: boolean }[];
  timeline: { status: string; reason: string | null }[];
}

describeStores('checkouts over HTTP', (dialect) => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  const walletAmount = async (asset: string, chain: string): Promise<string> => {
    const row = await fx.services.store.db
      .selectFrom('wallets')
      .innerJoin('assets', 'assets.id', 'wallets.asset_id')
      .innerJoin('chains', 'chains.id', 'wallets.chain_id')
      .select('wallets.amount')
      .where('wallets.merchant_id', '=', fx.demo.merchantId)
      .where('assets.symbol', '=', asset)
      .where('chains.symbol', '=', chain)
      .executeTakeFirst();
    return row?.amount ?? '0';
  };

  describe('a checkout from create to settled (the demo path)', () => {
    it('create → partial → full: open → underpaid → processing → settled, wallet + (received − fee)', async () => {
      // The demo's seed credits wrote wallet.balance_changed events already: this checkout's come after them.
      const seeded = await fx.services.store.db
        .selectFrom('events')
        .select((eb) => eb.fn.max('sequence').as('last'))
        .where('merchant_id', '=', fx.demo.merchantId)
        .executeTakeFirst();
      const created = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
        amount: 100,
        currency: 'USDT',
        orderId: 'order-1',
        description: 'Two books',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      });
      expect(created.statusCode, created.body).toBe(201);
      const c = resultOf<CheckoutResult>(created);
      expect(c.id).toMatch(/^chk_[0-9a-z]{31,}$/);
      expect(c.status).toBe('open');
      expect(c.url).toMatch(new RegExp(`/pay/${c.id}$`));
      const option = c.paymentOptions[0]!;
      expect(option.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      expect(option.amountDue).toBe('100');
      // The fee preview of 100 USDT: 1.5 % (min 1) + 1 on-chain = 2.5.
      expect(c.fee.fee).toBe('2.5');
      expect(option.netAmount).toBe('97.5');

      const before = new Decimal(await walletAmount('USDT', 'TRON'));
      const partial = await checkoutCall(fx, fx.demo, 'POST', `/api/v1/cp/psp/hosted-pay/${c.id}/simulate-payment`, {
        asset: 'USDT',
        chain: 'TRON',
        amount: '40',
      });
      expect(partial.statusCode, partial.body).toBe(200);
      const afterPartial = resultOf<CheckoutResult>(partial);
      expect([afterPartial.status, afterPartial.reason]).toEqual(['underpaid', 'paid_partial']);
      expect(afterPartial.paymentOptions[0]!.remaining).toBe('60');

      const full = await checkoutCall(fx, fx.demo, 'POST', `/api/v1/cp/psp/hosted-pay/${c.id}/simulate-payment`, {
        asset: 'USDT',
        chain: 'TRON',
      });
      const settled = resultOf<CheckoutResult>(full);
      expect(settled.status).toBe('settled');
      expect(settled.timeline.map((t) => t.status)).toEqual(['open', 'underpaid', 'processing', 'settled']);
      expect(settled.payments.map((p) => p.amount)).toEqual(['40', '60']);
      expect(new Decimal(await walletAmount('USDT', 'TRON')).minus(before).toFixed()).toBe('97.5');

      // Settled never changes; canceling it is 409.
      expectError(
        await checkoutCall(fx, fx.demo, 'POST', `/api/v1/cp/psp/hosted-pay/${c.id}/cancel`),
        409,
        'CHECKOUT_STATE_CONFLICT',
      );
      const events = await fx.services.store.db
        .selectFrom('events')
        .select(['type', 'sequence'])
        .where('merchant_id', '=', fx.demo.merchantId)
        .where('sequence', '>', Number(seeded?.last ?? 0))
        .orderBy('sequence')
        .execute();
      expect(events.map((e) => e.type)).toEqual([
        'checkout.created',
        'checkout.underpaid',
        'checkout.processing',
        'wallet.balance_changed',
        'checkout.settled',
      ]);
    });

    it("another merchant's checkout is 404, never its data", async () => {
      const created = resultOf<CheckoutResult>(
        await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
          amount: '10',
          currency: 'USDT',
          paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
        }),
      );
      const other = await fx.createKey(await fx.createMerchant('Other'));
      const res = await checkoutCall(fx, other, 'GET', `/api/v1/cp/psp/hosted-pay/${created.id}`);
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body).not.toContain(created.paymentOptions[0]!.address);
    });
  });

  describe('demo checkouts', () => {
    it('seeds checkouts in open, underpaid, processing, canceled, needs_review and two settled (credited to the USDT TRON wallet), and an unmatched transfer', async () => {
      const demo = await createFixture({ sandbox: true }, {}, dialect);
      try {
        const wallets = await demo.services.store.db
          .selectFrom('wallets')
          .select(['id', 'amount'])
          .orderBy('id')
          .execute();
        const ids = await seedDemoCheckouts(demo.services, demo.demo.merchantId);
        const statuses = [];
        for (const id of ids)
          statuses.push(((await demo.services.checkouts.get(demo.demo.merchantId, id)) as { status: string }).status);
        expect(statuses).toEqual(['open', 'underpaid', 'processing', 'canceled', 'needs_review', 'settled', 'settled']);
        const after = await demo.services.store.db
          .selectFrom('wallets')
          .select(['id', 'amount'])
          .orderBy('id')
          .execute();
        expect(after.filter((w, i) => w.amount !== wallets[i]!.amount)).toHaveLength(1);
        const unmatched = await demo.services.checkouts.listTransfers({ matched: false }, {});
        expect(unmatched.items.map((t) => t.exception)).toEqual(['unmatched']);
        // The one in review (paid in TRX) can be settled with the demo's rates.
        const settled = (await demo.services.checkouts.settleReview(ids[4]!, {}, { operator: 'test' })) as {
          status: string;
        };
        expect(settled.status).toBe('settled');
      } finally {
        await demo.close();
      }
    });
  });
});
