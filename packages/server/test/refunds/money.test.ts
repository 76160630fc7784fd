import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dialect, DIALECTS } from '../helpers.js';
import { checkoutCall } from '../http-helpers/checkouts.js';
import { createCheckout } from '../pay/helpers.js';
import { TRON_ADDRESS } from '../payouts/world.js';
import { C, exact, paidCheckout, pathOf, type RefundFixture, refundFixture, refundLink, submit } from './helpers.js';

/**
 * GET …/hosted-pay/{id}/refunds: a checkout's money (received, fee, net credited, refunded,
 * refundable) and its refunds, with the derived `partially refunded` / `refunded` label while the
 * checkout's own status stays `settled`.
 */
interface Money {
  asset: string | null;
  received: string;
  fee: string | null;
  netCredited: string;
  refunded: string;
  refundable: string;
  refundState: string | null;
  refunds: { amount: string; status: string; destination: string }[];
}

describe.each(DIALECTS)("a checkout's money on %s", (dialect: Dialect) => {
  let fx: RefundFixture;
  beforeAll(async () => {
    fx = await refundFixture(dialect);
  });
  afterAll(() => fx?.drop());
  const money = async (id: string) => exact<Money>(await checkoutCall(fx, fx.refunder, 'GET', `${C}/${id}/refunds`));
  const payerRefunds = async (id: string, body: Record<string, unknown>) => {
    const link = exact<{ url: string }>(await refundLink(fx, id, body));
    expect((await submit(fx, pathOf(link.url), TRON_ADDRESS)).statusCode).toBe(201);
  };

  it('received, fee and net credited; refunds move refunded and refundable and the label, not the status', async () => {
    const id = await paidCheckout(fx);
    const before = await money(id);
    expect(before).toMatchObject({
      asset: 'USDT',
      received: '100',
      refunded: '0',
      refundable: '100',
      refundState: null,
    });
    expect(Number(before.fee)).toBeGreaterThan(0);
    expect(Number(before.fee) + Number(before.netCredited)).toBe(100);
    expect(before.refunds).toEqual([]);

    await payerRefunds(id, { amount: '30' });
    const part = await money(id);
    expect(part).toMatchObject({ refunded: '30', refundable: '70', refundState: 'partially refunded' });
    expect(part.refunds).toMatchObject([{ amount: '30', destination: TRON_ADDRESS }]);

    await payerRefunds(id, {}); // whatever is left
    const all = await money(id);
    expect(all).toMatchObject({ refunded: '100', refundable: '0', refundState: 'refunded' });
    expect(all.refunds.map((r) => r.amount)).toEqual(['30', '70']);
    const checkout = exact<{ status: string; timeline: { status: string }[] }>(
      await checkoutCall(fx, fx.refunder, 'GET', `${C}/${id}`),
    );
    expect(checkout.status).toBe('settled');
    expect(checkout.timeline.filter((t) => t.status === 'refund_requested')).toHaveLength(2);
  });

  it('an unpaid checkout has nothing; another merchant sees none of it (404)', async () => {
    const open = await createCheckout(fx, {
      amount: '5',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    expect(await money(open.id)).toMatchObject({
      asset: null,
      received: '0',
      fee: null,
      refundable: '0',
      refundState: null,
    });
    const other = await fx.services.admin.createMerchant('Other Shop', { operator: 'test' });
    const key = await fx.createKey(other.id, { scopes: ['payouts:read'] });
    expect((await checkoutCall(fx, key, 'GET', `${C}/${open.id}/refunds`)).statusCode).toBe(404);
  });
});
