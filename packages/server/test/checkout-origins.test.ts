import { afterAll, beforeAll, expect, it } from 'vitest';
import { configureChains, checkoutCall, resultOf } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError } from './http-helpers/requests.js';
import { describeStores } from './helpers.js';
import { HostpayError } from '../src/errors.js';

// spec/commerce.md, "Shared decisions": the checkout's origin fields, `customerEmail` on create,
// the list's `?paymentLinkId=` / `?invoiceId=` filters, and a payment link's or invoice's create
// (service only) with a guard that runs in the create's transaction.
interface Origins {
  id: string;
  paymentLinkId: string | null;
  invoiceId: string | null;
  customerEmail: string | null;
  receiptNumber: string | null;
  receiptUrl: string | null;
}

describeStores('checkout origins', (dialect) => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());
  const body = { amount: 10, currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] };

  it('a create keeps customerEmail (domain lower-cased); the origin fields are null', async () => {
    const res = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
      ...body,
      customerEmail: ' Payer@Example.COM ',
    });
    expect(res.statusCode, res.body).toBe(201);
    const c = resultOf<Origins>(res);
    expect(c).toMatchObject({
      customerEmail: 'Payer@example.com',
      paymentLinkId: null,
      invoiceId: null,
      receiptNumber: null,
      receiptUrl: null,
    });
    const read = resultOf<Origins>(await checkoutCall(fx, fx.demo, 'GET', `/api/v1/cp/psp/hosted-pay/${c.id}`));
    expect(read.customerEmail).toBe('Payer@example.com');
  });

  it.each([
    ['a display name', 'Payer <payer@example.com>'],
    ['two addresses', 'a@example.com,b@example.com'],
    ['a header injection', 'payer@example.com\r\nBcc: x@example.com'],
    ['no domain', 'payer@'],
    ['over 254 characters', `${'a'.repeat(250)}@example.com`],
    [
      'far over 254 characters (past what a schema bound would catch as INVALID_BODY)',
      `${'a'.repeat(64)}@${'b'.repeat(400)}.com`,
    ],
    ['a trailing line break', 'payer@example.com\n'],
    ['a leading carriage return', '\rpayer@example.com'],
  ])('customerEmail with %s is 400 INVALID_EMAIL and writes nothing', async (_, email) => {
    const before = await fx.services.store.db
      .selectFrom('checkouts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', { ...body, customerEmail: email });
    expectError(res, 400, 'INVALID_EMAIL');
    const after = await fx.services.store.db
      .selectFrom('checkouts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('a link or invoice create stores its origin; the list filters by it; a guard that throws writes nothing', async () => {
    const merchantId = fx.demo.merchantId;
    const checkouts = fx.services.checkouts;
    const viaLink = await checkouts.createFrom(merchantId, body, { origin: { paymentLinkId: 'plink_test1' } });
    const viaInvoice = await checkouts.createFrom(merchantId, body, { origin: { invoiceId: 'inv_test1' } });
    expect(viaLink.paymentLinkId).toBe('plink_test1');
    expect(viaInvoice.invoiceId).toBe('inv_test1');
    let guarded = 0;
    await expect(
      checkouts.createFrom(merchantId, body, {
        origin: { paymentLinkId: 'plink_test1' },
        guard: async (trx) => {
          guarded += Number(
            (
              await trx
                .selectFrom('checkouts')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('payment_link_id', '=', 'plink_test1')
                .executeTakeFirstOrThrow()
            ).n,
          );
          throw new HostpayError('PAYMENT_LINK_UNAVAILABLE', 'used up');
        },
      }),
    ).rejects.toMatchObject({ code: 'PAYMENT_LINK_UNAVAILABLE' });
    expect(guarded).toBe(1);
    const byLink = resultOf<Origins[]>(
      await checkoutCall(fx, fx.demo, 'GET', '/api/v1/cp/psp/hosted-pay?paymentLinkId=plink_test1'),
    );
    expect(byLink.map((c) => c.id)).toEqual([viaLink.id]);
    const byInvoice = resultOf<Origins[]>(
      await checkoutCall(fx, fx.demo, 'GET', '/api/v1/cp/psp/hosted-pay?invoiceId=inv_test1'),
    );
    expect(byInvoice.map((c) => c.id)).toEqual([viaInvoice.id]);
  });
});
