import { parseExactJson } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, type Dialect } from '../helpers.js';
import { checkoutCall } from '../http-helpers/checkouts.js';
import {
  balanceOf,
  C,
  errorCode,
  exact,
  inReview,
  paidCheckout,
  pathOf,
  refund,
  type RefundFixture,
  refundFixture,
  refundLink,
  spareTronAddress,
  submit,
} from './helpers.js';

const EVM_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const ops = { operator: 'refund-test' };

interface PayoutView {
  id: string;
  status: string;
  amount: string;
  total: string;
  destination: string;
  destinationId: string | null;
  refundOf: string | null;
}

describe.each(DIALECTS)('refunds on %s', (dialect: Dialect) => {
  let fx: RefundFixture;
  /** A valid TRON address no checkout of this test pays to: a deposit address handed out for nothing else. */
  let payerTron: string;
  beforeAll(async () => {
    fx = await refundFixture(dialect);
    payerTron = await spareTronAddress(fx);
  });
  afterAll(() => fx.drop());

  const db = () => fx.services.store.db;
  const payoutsOf = (checkoutId: string) =>
    db().selectFrom('payouts').selectAll().where('refund_of', '=', checkoutId).execute();
  const timelineOf = async (checkoutId: string) =>
    exact<{ timeline: { status: string }[]; status: string }>(
      await checkoutCall(fx, fx.demo, 'GET', `${C}/${checkoutId}`),
    );
  const eventsOf = async (type: string) =>
    (
      await db()
        .selectFrom('events')
        .select(['type', 'data'])
        .where('merchant_id', '=', fx.demo.merchantId)
        .where('type', '=', type)
        .execute()
    ).map((e) => (parseExactJson(e.data) as { object: PayoutView }).object);

  it("the payer's link: a wrong chain's address refused on the page, a good one requests the refund, the link is used, a second use refused", async () => {
    const id = await paidCheckout(fx);
    const path = pathOf(exact<{ url: string }>(await refundLink(fx, id, { amount: '30' })).url);
    const wallet = (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;

    // An Ethereum address on a TRON refund, and a TRON-shaped one with a bad checksum: 400, the link still works.
    const broken = `${payerTron.slice(0, -1)}${payerTron.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [EVM_ADDRESS, broken]) {
      const res = await submit(fx, path, wrong);
      expect(res.statusCode, wrong).toBe(400);
      expect(res.body).toContain(
        '<p class="field-error" id="address-error">This is not an address the refund can be sent to:',
      );
      expect(res.body).toContain('aria-describedby="address-hint address-error"');
      expect(res.body).toContain('aria-invalid="true" autofocus');
      expect(res.body).toContain(`value="${wrong}"`);
    }
    expect(await payoutsOf(id)).toHaveLength(0);
    expect(await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON')).toEqual(wallet);

    const ok = await submit(fx, path, `  ${payerTron} `);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.body).toContain('Refund requested');
    expect(ok.body).toContain(`<code class="tx" dir="ltr">${payerTron}</code>`);
    const [payout, ...more] = await payoutsOf(id);
    expect(more).toHaveLength(0);
    expect(payout).toMatchObject({
      refund_of: id,
      destination: payerTron,
      destination_source: 'payer',
      destination_id: null,
      status: 'pending_approval',
    });
    expect(String(payout!.amount)).toBe('30');
    const link = await db()
      .selectFrom('refund_links')
      .selectAll()
      .where('checkout_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(link.payout_id).toBe(payout!.id);
    expect(link.used_at).not.toBeNull();
    // The total is frozen like any payout's: the balance is unchanged, the frozen part grew.
    const after = (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;
    expect(after.amount).toBe(wallet.amount);
    expect(Number(after.frozen) - Number(wallet.frozen)).toBeCloseTo(Number(payout!.total), 9);

    // The checkout's timeline and the events record it; the payout's own events carry refundOf.
    const checkout = await timelineOf(id);
    expect(checkout.status).toBe('settled');
    expect(checkout.timeline.map((t) => t.status)).toEqual(['open', 'processing', 'settled', 'refund_requested']);
    const requested = (await eventsOf('refund.requested')).filter((p) => p.refundOf === id);
    expect(requested.map((p) => p.id)).toEqual([payout!.id]);
    expect((await eventsOf('payout.requested')).find((p) => p.id === payout!.id)?.refundOf).toBe(id);

    // Used once: a second post is 409 and requests nothing; the page says it was used.
    const again = await submit(fx, path, payerTron);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('This refund link was already used');
    expect(await payoutsOf(id)).toHaveLength(1);
    const page = await fx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(410);
    expect(page.body).not.toContain('<form');
  });

  it('an expired link is refused and requests nothing; a post from another site is 403', async () => {
    const id = await paidCheckout(fx);
    const path = pathOf(exact<{ url: string }>(await refundLink(fx, id)).url);
    const cross = await submit(fx, path, payerTron, { origin: 'https://evil.example' });
    expect(cross.statusCode).toBe(403);
    const fetchSite = await submit(fx, path, payerTron, { 'sec-fetch-site': 'cross-site' });
    expect(fetchSite.statusCode).toBe(403);
    fx.clock.offsetMs += 7 * 24 * 3600 * 1000 + 1000;
    try {
      const res = await submit(fx, path, payerTron);
      expect(res.statusCode).toBe(410);
      expect(res.body).toContain('This refund link has expired');
    } finally {
      fx.clock.offsetMs -= 7 * 24 * 3600 * 1000 + 1000;
    }
    expect(await payoutsOf(id)).toHaveLength(0);
  });

  it('the merchant gives the address: it must be an active destination of its book; more than is refundable is 422 and freezes nothing', async () => {
    const id = await paidCheckout(fx, '50', '50');
    const before = (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;
    const over = await refund(fx, id, { amount: '50.01', destination: payerTron });
    expect(over.statusCode).toBe(422);
    expect(errorCode(over)).toBe('REFUND_TOO_LARGE');
    const wrongChain = await refund(fx, id, { amount: '1', destination: EVM_ADDRESS });
    expect(wrongChain.statusCode).toBe(400);
    expect(errorCode(wrongChain)).toBe('INVALID_ADDRESS');
    // Not in the address book: refused like any payout (a stolen key cannot refund to itself).
    const unknown = await refund(fx, id, { amount: '20', destination: payerTron });
    expect(unknown.statusCode).toBe(404);
    expect(await payoutsOf(id)).toHaveLength(0);
    expect(await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON')).toEqual(before);

    await fx.services.store.db
      .updateTable('merchants')
      .set({ payout_cooling_off_hours: 0 })
      .where('id', '=', fx.demo.merchantId)
      .execute();
    await fx.services.payouts.addDestination(fx.demo.merchantId, { chain: 'TRON', address: payerTron });
    const res = await refund(fx, id, { amount: '20', destination: payerTron });
    expect(res.statusCode, res.body).toBe(201);
    const payout = exact<PayoutView>(res);
    expect(payout).toMatchObject({ refundOf: id, amount: '20', destination: payerTron });
    expect(payout.destinationId).toMatch(/^dst_/);
    // Earlier refunds count: 30 left, so 30.01 is too much and 30 is not.
    const rest = await refund(fx, id, { amount: '30.01', destination: payerTron });
    expect(rest.statusCode).toBe(422);
    expect(JSON.parse(rest.body).error.details.refundable).toBe(30);
    // Without a destination the answer is a link for the amount.
    const asLink = await refund(fx, id, { amount: '30' });
    expect(asLink.statusCode).toBe(201);
    expect(exact<{ url: string; amount: string }>(asLink)).toMatchObject({ amount: '30' });
    // A canceled refund gives its amount back to what is refundable.
    await fx.services.payouts.cancel(fx.demo.merchantId, payout.id);
    expect((await refundLink(fx, id, { amount: '50' })).statusCode).toBe(201);
  });

  it('a checkout in review: the refund credits its total and freezes it in one transaction, so the wallet is unchanged net, also once paid out', async () => {
    const id = await inReview(fx, '40');
    expect((await timelineOf(id)).status).toBe('needs_review');
    await fx.services.admin.payouts.setNetworkFee({ chain: 'TRON', asset: 'USDT', networkFee: '1.5' }, ops);
    const before = (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;
    const path = pathOf(exact<{ url: string }>(await refundLink(fx, id)).url);
    expect((await fx.app.inject({ method: 'GET', url: path })).body).toContain(
      '<p class="amount"><bdi dir="ltr">40\u00a0USDT</bdi></p>',
    );
    const res = await submit(fx, path, payerTron);
    expect(res.statusCode, res.body).toBe(201);
    const [payout] = await payoutsOf(id);
    expect(String(payout!.total)).toBe('41.5');
    const requested = (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;
    // Credited 41.5 and frozen 41.5: what the merchant can spend did not move.
    expect(Number(requested.amount) - Number(before.amount)).toBeCloseTo(41.5, 9);
    expect(Number(requested.frozen) - Number(before.frozen)).toBeCloseTo(41.5, 9);
    expect((await timelineOf(id)).status).toBe('needs_review');

    await fx.services.admin.payouts.approve(payout!.id, ops);
    const done = await checkoutCall(fx, fx.refunder, 'POST', `/api/v1/cp/payouts/${payout!.id}/simulate`, {
      outcome: 'completed',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON')).toEqual(before);
    await fx.services.admin.payouts.setNetworkFee({ chain: 'TRON', asset: 'USDT', networkFee: '0' }, ops);
  });

  it('a refund of a checkout in review given up (rejected, then failed after sent) debits back what it credited: the wallet exactly as before', async () => {
    const id = await inReview(fx, '30');
    expect((await timelineOf(id)).status).toBe('needs_review');
    await fx.services.admin.payouts.setNetworkFee({ chain: 'TRON', asset: 'USDT', networkFee: '1.25' }, ops);
    const before = (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;

    const first = await submit(fx, pathOf(exact<{ url: string }>(await refundLink(fx, id)).url), payerTron);
    expect(first.statusCode, first.body).toBe(201);
    const [rejected] = await payoutsOf(id);
    expect(Number((await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!.amount) - Number(before.amount)).toBe(
      31.25,
    );
    await fx.services.admin.payouts.reject(rejected!.id, 'not this one', ops);
    expect(await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON')).toEqual(before);
    const debits = await db()
      .selectFrom('ledger_postings')
      .select(['kind', 'amount'])
      .where('idempotency_key', 'like', `payout:${rejected!.id}:%`)
      .orderBy('id')
      .execute();
    expect(debits.map((d) => [d.kind, Number(d.amount)]).sort()).toEqual(
      [
        ['credit', 31.25],
        ['freeze', 31.25],
        ['unfreeze', 31.25],
        ['debit', 31.25],
      ].sort(),
    );

    // The amount is refundable again; this time the payout is sent and fails.
    const second = await submit(fx, pathOf(exact<{ url: string }>(await refundLink(fx, id)).url), payerTron);
    expect(second.statusCode, second.body).toBe(201);
    const failed = (await payoutsOf(id)).find((p) => p.id !== rejected!.id)!;
    await fx.services.admin.payouts.approve(failed.id, ops);
    const res = await checkoutCall(fx, fx.refunder, 'POST', `/api/v1/cp/payouts/${failed.id}/simulate`, {
      outcome: 'failed',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON')).toEqual(before);
    expect((await timelineOf(id)).status).toBe('needs_review');
    await fx.services.admin.payouts.setNetworkFee({ chain: 'TRON', asset: 'USDT', networkFee: '0' }, ops);
  });
});
