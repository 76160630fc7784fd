import { Decimal } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayError } from '../../src/errors.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { checkoutCall } from '../http-helpers/checkouts.js';
import {
  balanceOf,
  exact,
  inReview,
  pathOf,
  type RefundFixture,
  refundFixture,
  refundLink,
  spareTronAddress,
  submit,
} from './helpers.js';

const ops = { operator: 'refund-test' };

/**
 * An operator settles a checkout in review after a refund of it (docs/payouts.md, "Refunds"):
 * the refund credited its total when it was requested, so the settle credits what was received
 * minus the fee minus that; while a refund of it is still open, the settle (and its preview) is
 * 409. The merchant ends where a settle followed by the same refund would have left it.
 */
describe.each(DIALECTS)('settling a checkout in review after a refund, on %s', (dialect: Dialect) => {
  let fx: RefundFixture;
  let payer: string;
  beforeAll(async () => {
    fx = await refundFixture(dialect);
    payer = await spareTronAddress(fx);
    await fx.services.admin.payouts.setNetworkFee({ chain: 'TRON', asset: 'USDT', networkFee: '1.5' }, ops);
  });
  afterAll(() => fx.drop());

  const svc = () => fx.services.admin.checkouts;
  const wallet = async () => (await balanceOf(fx, fx.demo.merchantId, 'USDT', 'TRON'))!;

  async function refundByPayer(checkoutId: string, amount: string): Promise<string> {
    const path = pathOf(exact<{ url: string }>(await refundLink(fx, checkoutId, { amount })).url);
    const res = await submit(fx, path, payer);
    expect(res.statusCode, res.body).toBe(201);
    const row = await fx.services.store.db
      .selectFrom('payouts')
      .select(['id', 'total'])
      .where('refund_of', '=', checkoutId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(String(row.total)).toBe(new Decimal(amount).plus('1.5').toFixed());
    return row.id;
  }

  const simulateTo = async (payoutId: string, outcome: 'completed' | 'failed') => {
    const res = await checkoutCall(fx, fx.refunder, 'POST', `/api/v1/cp/payouts/${payoutId}/simulate`, { outcome });
    expect(res.statusCode, res.body).toBe(200);
  };

  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HostpayError);
    return err as HostpayError;
  };

  it('a refund still open refuses the settle and its preview (409), crediting nothing', async () => {
    const id = await inReview(fx, '60');
    const refundId = await refundByPayer(id, '20');
    const before = await wallet();
    // One at a time: a refusal made before it is awaited would be an unhandled rejection.
    for (const attempt of [() => svc().settlePreview(id, {}), () => svc().settleReview(id, {}, ops)]) {
      const err = await refusal(attempt());
      expect(err.code).toBe('CHECKOUT_STATE_CONFLICT');
      expect(err.message).toContain(refundId);
    }
    expect(await wallet()).toEqual(before);
    await fx.services.admin.payouts.approve(refundId, ops);
    expect((await refusal(svc().settleReview(id, {}, ops))).code).toBe('CHECKOUT_STATE_CONFLICT');
    await fx.services.admin.payouts.cancelAny(refundId, ops);
  });

  it('after a completed refund, the settle credits received − fee − the refund total; the merchant ends as if settled, then refunded', async () => {
    const id = await inReview(fx, '60');
    const quoted = (await svc().settlePreview(id, {})) as unknown as {
      credit: { amount: unknown };
      fee: { amount: unknown };
    };
    const fullCredit = new Decimal(String(quoted.credit.amount));
    expect(fullCredit.plus(String(quoted.fee.amount)).toFixed()).toBe('60');
    const start = await wallet();

    const refundId = await refundByPayer(id, '20');
    await fx.services.admin.payouts.approve(refundId, ops);
    await simulateTo(refundId, 'completed');
    // The refund credited and debited its 21.5: the wallet is where it was.
    expect(await wallet()).toEqual(start);

    const preview = (await svc().settlePreview(id, {})) as unknown as { credit: { amount: unknown } };
    expect(String(preview.credit.amount)).toBe(fullCredit.minus('21.5').toFixed());
    const settled = await svc().settleReview(id, {}, ops);
    expect(settled.status).toBe('settled');
    const end = await wallet();
    // Settled first (+ fullCredit), then refunded 20 with a network fee of 1.5 (− 21.5): the same.
    expect(new Decimal(end.amount).minus(start.amount).toFixed()).toBe(fullCredit.minus('21.5').toFixed());
    expect(end.frozen).toBe(start.frozen);
  });

  it('a failed refund takes nothing from the settle', async () => {
    const id = await inReview(fx, '50');
    const full = new Decimal(
      String(((await svc().settlePreview(id, {})) as unknown as { credit: { amount: unknown } }).credit.amount),
    );
    const refundId = await refundByPayer(id, '10');
    await fx.services.admin.payouts.approve(refundId, ops);
    await simulateTo(refundId, 'failed');
    const preview = (await svc().settlePreview(id, {})) as unknown as { credit: { amount: unknown } };
    expect(String(preview.credit.amount)).toBe(full.toFixed());
  });
});
