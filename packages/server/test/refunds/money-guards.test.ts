import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect } from '../helpers.js';
import { checkoutCall, resultOf } from '../http-helpers/checkouts.js';
import {
  balanceOf,
  errorCode,
  paidCheckout,
  pathOf,
  refund,
  type RefundFixture,
  refundFixture,
  refundLink,
  spareTronAddress,
  submit,
} from './helpers.js';

/**
 * Refunds share the payouts' path (issue 42, item 4), over HTTP on both stores: nothing leaves a
 * deactivated wallet, burn addresses are refused from the merchant and on the payer's page, and
 * the address book answers an address it already holds with that entry (200), not a new one.
 */
const TRON_BLACK_HOLE = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
const D = '/api/v1/cp/payout-destinations';
const ops = { operator: 'money-guards' };

describe.each(DIALECTS)('money guards over HTTP on %s', (dialect: Dialect) => {
  let fx: RefundFixture;
  let payerTron: string;
  beforeAll(async () => {
    fx = await refundFixture(dialect);
    payerTron = await spareTronAddress(fx);
    await fx.services.admin.updateMerchant(fx.demo.merchantId, { payoutCoolingOffHours: 0 }, ops);
  });
  afterAll(() => fx.drop());

  const refundsOf = (checkoutId: string) =>
    fx.services.store.db.selectFrom('payouts').select('id').where('refund_of', '=', checkoutId).execute();

  it('adding an address twice: 201 then 200 with the same entry; one row, one event', async () => {
    const first = await checkoutCall(fx, fx.refunder, 'POST', D, { chain: 'TRON', address: payerTron });
    expect(first.statusCode, first.body).toBe(201);
    const again = await checkoutCall(fx, fx.refunder, 'POST', D, { chain: 'TRON', address: payerTron, label: 'x' });
    expect(again.statusCode, again.body).toBe(200);
    expect(resultOf<{ id: string }>(again).id).toBe(resultOf<{ id: string }>(first).id);
    const rows = await fx.services.store.db
      .selectFrom('payout_destinations')
      .select('id')
      .where('merchant_id', '=', fx.demo.merchantId)
      .where('address', '=', payerTron)
      .execute();
    expect(rows).toHaveLength(1);
    const added = await fx.services.store.db
      .selectFrom('events')
      .select('id')
      .where('merchant_id', '=', fx.demo.merchantId)
      .where('type', '=', 'payout_destination.added')
      .execute();
    expect(added).toHaveLength(1);
  });

  it('a burn address: 400 INVALID_ADDRESS from the merchant, refused on the payer page; nothing requested', async () => {
    const id = await paidCheckout(fx, '20', '20');
    const before = await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON');
    const res = await refund(fx, id, { amount: '1', destination: TRON_BLACK_HOLE });
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('INVALID_ADDRESS');
    expect(JSON.parse(res.body).error.details).toEqual({ chain: 'TRON', reason: 'burn_address' });
    const add = await checkoutCall(fx, fx.refunder, 'POST', D, { chain: 'TRON', address: TRON_BLACK_HOLE });
    expect(add.statusCode).toBe(400);
    expect(errorCode(add)).toBe('INVALID_ADDRESS');

    const path = pathOf(resultOf<{ url: string }>(await refundLink(fx, id, { amount: '5' })).url);
    const page = await submit(fx, path, TRON_BLACK_HOLE);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('never be spent');
    expect(await refundsOf(id)).toHaveLength(0);
    expect(await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON')).toEqual(before);
  });

  it('a deactivated wallet refunds nothing: 409 WALLET_INACTIVE, nothing frozen; active again, it refunds', async () => {
    const id = await paidCheckout(fx, '20', '20');
    const wallet = (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;
    await fx.services.admin.setWalletActive(wallet.id, false, ops);
    try {
      const res = await refund(fx, id, { amount: '1', destination: payerTron });
      expect(res.statusCode, res.body).toBe(409);
      expect(errorCode(res)).toBe('WALLET_INACTIVE');
      expect(await refundsOf(id)).toHaveLength(0);
      expect(await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON')).toEqual(wallet);
    } finally {
      await fx.services.admin.setWalletActive(wallet.id, true, ops);
    }
    const ok = await refund(fx, id, { amount: '1', destination: payerTron });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it("the payer's link on a deactivated wallet: a page saying so, nothing requested, the link still usable", async () => {
    const id = await paidCheckout(fx, '20', '20');
    const path = pathOf(resultOf<{ url: string }>(await refundLink(fx, id, { amount: '2' })).url);
    const wallet = (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;
    await fx.services.admin.setWalletActive(wallet.id, false, ops);
    try {
      const res = await submit(fx, path, payerTron);
      expect(res.statusCode).toBe(409);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Your link still works');
      expect(await refundsOf(id)).toHaveLength(0);
    } finally {
      await fx.services.admin.setWalletActive(wallet.id, true, ops);
    }
    const ok = await submit(fx, path, payerTron);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await refundsOf(id)).toHaveLength(1);
  });
  it('past the submit limit a valid address gets the 429 page and nothing is requested (the handler stops there)', async () => {
    const id = await paidCheckout(fx, '20', '20');
    const path = pathOf(resultOf<{ url: string }>(await refundLink(fx, id, { amount: '2' })).url);
    const from = (address: string) =>
      fx.app.inject({
        method: 'POST',
        url: path,
        remoteAddress: '198.51.100.23',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:80' },
        payload: new URLSearchParams({ address }).toString(),
      });
    // REFUND_PAGE_LIMITS.submit (20 a minute per address) spent on addresses the form refuses.
    for (let i = 0; i < 20; i++) expect((await from('not-an-address')).statusCode).not.toBe(429);
    const limited = await from(payerTron);
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain('Too many requests');
    expect(await refundsOf(id)).toHaveLength(0);
  });
});
