import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { expectError } from '../http-helpers/requests.js';
import { describeStores } from '../helpers.js';
import { createLink, type Link, LINKS, newLink, openAndPay, USDT_TRON } from './helpers.js';

// spec/commerce.md, "Payment links": the merchant routes. (resultOf reads every number as its exact text.)
describeStores('payment links API', (dialect) => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true }, {}, dialect);
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  it('creates a link with line items: amount is their sum, slug ~128 bits, url /l/{slug}, event payment_link.created', async () => {
    const link = await newLink(fx, {
      name: 'Two mugs',
      lineItems: [
        { name: 'Mug', quantity: 2, unitAmount: '7.25' },
        { name: 'Shipping', quantity: 1, unitAmount: 3 },
      ],
      collectEmail: 'required',
      maxUses: 5,
      metadata: { sku: 'mug' },
    });
    expect(link).toMatchObject({
      name: 'Two mugs',
      currency: 'USDT',
      amount: '17.5',
      minAmount: null,
      maxAmount: null,
      collectEmail: 'required',
      maxUses: '5',
      uses: '0',
      active: true,
      status: 'active',
      metadata: { sku: 'mug' },
    });
    expect(link.lineItems).toEqual([
      { name: 'Mug', quantity: '2', unitAmount: '7.25' },
      { name: 'Shipping', quantity: '1', unitAmount: '3' },
    ]);
    expect(link.id).toMatch(/^plink_/);
    expect(link.slug).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new URL(link.url).pathname).toBe(`/l/${link.slug}`);
    const events = await fx.services.store.db
      .selectFrom('events')
      .select(['type'])
      .where('merchant_id', '=', fx.demo.merchantId)
      .where('type', '=', 'payment_link.created')
      .execute();
    expect(events.length).toBeGreaterThan(0);
    const read = resultOf<Link>(await checkoutCall(fx, fx.demo, 'GET', `${LINKS}/${link.id}`));
    expect(read).toEqual(link);
  });

  it.each([
    [
      'an amount that is not the sum of lineItems',
      { amount: '10', lineItems: [{ name: 'A', quantity: 2, unitAmount: '4' }] },
      'INVALID_AMOUNT',
    ],
    ['more decimals than the currency', { amount: '1.1234567' }, 'INVALID_AMOUNT'],
    ['minAmount above maxAmount', { minAmount: '10', maxAmount: '5' }, 'INVALID_AMOUNT'],
    ['bounds with a fixed price', { amount: '5', minAmount: '1' }, 'INVALID_BODY'],
    ['a quantity over 1000', { lineItems: [{ name: 'A', quantity: 1001, unitAmount: '1' }] }, 'INVALID_BODY'],
    [
      '21 line items',
      { lineItems: Array.from({ length: 21 }, () => ({ name: 'A', quantity: 1, unitAmount: '1' })) },
      'INVALID_BODY',
    ],
    ['an http successUrl', { amount: '5', successUrl: 'http://shop.example/thanks' }, 'INVALID_URL'],
    ['an expiry in the past', { amount: '5', expiresAt: '2020-01-01T00:00:00Z' }, 'INVALID_BODY'],
    ['an unknown field', { amount: '5', uses: 3 }, 'INVALID_BODY'],
  ])('refuses %s (400) and writes nothing', async (_, extra, code) => {
    const before = (await fx.services.store.db.selectFrom('payment_links').select('id').execute()).length;
    const res = await createLink(fx, { name: 'Bad', currency: 'USDT', ...extra });
    expectError(res, 400, code);
    expect((await fx.services.store.db.selectFrom('payment_links').select('id').execute()).length).toBe(before);
  });

  it('PATCH changes only the contract fields (the price is fixed); status follows active and expiresAt; event payment_link.updated', async () => {
    const link = await newLink(fx, { name: 'Tip jar', minAmount: '1', maxAmount: '100' });
    const patch = (body: unknown) =>
      checkoutCall(fx, fx.demo, 'PATCH', `${LINKS}/${link.id}`, body, { 'idempotency-key': `patch-${Math.random()}` });
    expectError(await patch({ amount: '5' }), 400, 'INVALID_BODY');
    expectError(await patch({ currency: 'BTC' }), 400, 'INVALID_BODY');
    const res = await patch({ name: 'Tips', description: 'Thanks!', active: false, maxUses: 3, metadata: { a: 'b' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(resultOf<Link>(res)).toMatchObject({
      name: 'Tips',
      description: 'Thanks!',
      active: false,
      status: 'inactive',
      maxUses: '3',
      minAmount: '1',
      maxAmount: '100',
      amount: null,
      metadata: { a: 'b' },
    });
    const updated = await fx.services.store.db
      .selectFrom('events')
      .select('type')
      .where('type', '=', 'payment_link.updated')
      .execute();
    expect(updated.length).toBeGreaterThan(0);
    const again = resultOf<Link>(await patch({ active: true, maxUses: null }));
    expect(again).toMatchObject({ active: true, status: 'active', maxUses: null });
  });

  it("another merchant's link is 404 for GET, PATCH and its checkouts", async () => {
    const link = await newLink(fx, { name: 'Mine', amount: '5' });
    const other = await fx.createKey(await fx.createMerchant('Other Shop'));
    expectError(await checkoutCall(fx, other, 'GET', `${LINKS}/${link.id}`), 404, 'NOT_FOUND');
    expectError(
      await checkoutCall(
        fx,
        other,
        'PATCH',
        `${LINKS}/${link.id}`,
        { active: false },
        { 'idempotency-key': 'other-patch' },
      ),
      404,
      'NOT_FOUND',
    );
    expectError(await checkoutCall(fx, other, 'GET', `${LINKS}/${link.id}/checkouts`), 404, 'NOT_FOUND');
    const theirs = resultOf<Link[]>(await checkoutCall(fx, other, 'GET', LINKS));
    expect(theirs.map((l) => l.id)).not.toContain(link.id);
  });

  it('lists newest first with nextCursor; the link checkouts route lists what its page made', async () => {
    const a = await newLink(fx, { name: 'List A', amount: '10' });
    const b = await newLink(fx, { name: 'List B', amount: '20' });
    const first = await checkoutCall(fx, fx.demo, 'GET', `${LINKS}?limit=1`);
    const body = JSON.parse(first.body) as { result: Link[]; nextCursor: string | null };
    expect(body.result.map((l) => l.id)).toEqual([b.id]);
    expect(body.nextCursor).not.toBeNull();
    const second = JSON.parse(
      (await checkoutCall(fx, fx.demo, 'GET', `${LINKS}?limit=1&cursor=${encodeURIComponent(body.nextCursor!)}`)).body,
    ) as { result: Link[] };
    expect(second.result.map((l) => l.id)).toEqual([a.id]);
    const paid = await openAndPay(fx, a.slug);
    expect(paid.statusCode, paid.body).toBe(303);
    const checkouts = resultOf<{ id: string; paymentLinkId: string }[]>(
      await checkoutCall(fx, fx.demo, 'GET', `${LINKS}/${a.id}/checkouts`),
    );
    expect(checkouts.map((c) => `/pay/${c.id}`)).toEqual([paid.headers.location]);
    expect(checkouts[0]!.paymentLinkId).toBe(a.id);
  });

  it('a key without links:write cannot create (403); links:read lists', async () => {
    const readOnly = await fx.createKey(fx.demo.merchantId, { scopes: ['links:read'] });
    const res = await createLink(fx, { name: 'X', currency: 'USDT', amount: '1', paymentOptions: USDT_TRON }, readOnly);
    expect(res.statusCode).toBe(403);
    expect((await checkoutCall(fx, readOnly, 'GET', LINKS)).statusCode).toBe(200);
  });
});
