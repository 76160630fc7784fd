import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { type Link, LINKS, newLink, nonceOf, submit } from './helpers.js';

// spec/commerce.md, "Payment links": maxUses under 20 concurrent payers on PostgreSQL. The guard
// locks the link row in each create's transaction and counts settled plus live checkouts, so
// exactly maxUses checkouts exist (and settle); everyone else sees the link used up and no
// checkout beyond the limit is ever payable.
describe('payment link maxUses on postgres', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture(
      { sandbox: true, linkCheckoutsPerAddressPerMinute: 1000, linkCheckoutsPerLinkPerMinute: 1000 },
      {},
      'postgres',
    );
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  it('20 payers at once on a link with maxUses 3: 3 checkouts made and settled, 17 answered 410 used up', async () => {
    const link = await newLink(fx, { name: 'Three seats', amount: '10', maxUses: 3 });
    const pages = await Promise.all(
      Array.from({ length: 20 }, () => fx.app.inject({ method: 'GET', url: `/l/${link.slug}` })),
    );
    const answers = await Promise.all(pages.map((page) => submit(fx, link.slug, { nonce: nonceOf(page) })));
    const made = answers.filter((a) => a.statusCode === 303);
    const refused = answers.filter((a) => a.statusCode === 410);
    expect(made.length).toBe(3);
    expect(refused.length).toBe(17);
    for (const r of refused) expect(r.body).toContain('This payment link is used up');
    const rows = await fx.services.store.db
      .selectFrom('checkouts')
      .select(['id', 'status'])
      .where('payment_link_id', '=', link.id)
      .execute();
    expect(rows.length).toBe(3);
    for (const m of made) {
      const id = m.headers.location!.slice('/pay/'.length);
      const paid = await checkoutCall(
        fx,
        fx.demo,
        'POST',
        `/api/v1/cp/psp/hosted-pay/${id}/simulate-payment`,
        { asset: 'USDT', chain: 'TRON' },
        { 'idempotency-key': `max-${id}` },
      );
      expect(paid.statusCode, paid.body).toBe(200);
    }
    const read = resultOf<Link>(await checkoutCall(fx, fx.demo, 'GET', `${LINKS}/${link.id}`));
    expect(read).toMatchObject({ uses: '3', status: 'used_up' });
    const settled = await fx.services.store.db
      .selectFrom('checkouts')
      .select('id')
      .where('payment_link_id', '=', link.id)
      .where('status', '=', 'settled')
      .execute();
    expect(settled.length).toBe(3);
    // Used up for good: a later payer is refused too.
    expect((await fx.app.inject({ method: 'GET', url: `/l/${link.slug}` })).statusCode).toBe(410);
  });
});
