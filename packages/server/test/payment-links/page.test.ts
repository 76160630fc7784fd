import { afterAll, beforeAll, expect, it } from 'vitest';
import { PUBLIC_FORM_CSP } from '../../src/http/public-form.js';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { describeStores } from '../helpers.js';
import { type Link, LINKS, newLink, nonceOf, openAndPay, submit } from './helpers.js';

interface Made {
  id: string;
  status: string;
  amount: string;
  description: string | null;
  metadata: Record<string, string>;
  paymentLinkId: string | null;
  customerEmail: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
}

// spec/commerce.md, "Payment links" and "Shared decisions": the public page /l/{slug}.
describeStores('payment link page', (dialect) => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture(
      { sandbox: true, linkCheckoutsPerAddressPerMinute: 1000, linkCheckoutsPerLinkPerMinute: 1000 },
      {},
      dialect,
    );
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());
  const checkoutOf = async (location: string | undefined) => {
    expect(location).toMatch(/^\/pay\/chk_/);
    return resultOf<Made>(
      await checkoutCall(fx, fx.demo, 'GET', `/api/v1/cp/psp/hosted-pay/${location!.slice('/pay/'.length)}`),
    );
  };
  const count = async (linkId: string) =>
    (await fx.services.store.db.selectFrom('checkouts').select('id').where('payment_link_id', '=', linkId).execute())
      .length;

  it('a visit creates nothing; the page has the form, the policy without unsafe-inline, the sandbox notice', async () => {
    const link = await newLink(fx, {
      name: 'Donation',
      description: 'Keep us going',
      minAmount: '5',
      maxAmount: '500',
      collectEmail: 'optional',
    });
    const page = await fx.app.inject({ method: 'GET', url: `/l/${link.slug}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(PUBLIC_FORM_CSP);
    expect(String(page.headers['content-security-policy'])).not.toContain('unsafe');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>Donation</h1>');
    expect(page.body).toContain('Keep us going');
    expect(page.body).toContain('Payment to Demo Shop');
    expect(page.body).toContain(`<form class="card refund" method="post" action="/l/${link.slug}">`);
    expect(page.body).toMatch(/<input id="amount" name="amount" type="number"[^>]* min="5" max="500"/);
    expect(page.body).toContain('name="email" type="email"');
    expect(page.body).toContain('Sandbox: a test server');
    expect(page.body).not.toContain('<script');
    expect(await count(link.id)).toBe(0);
  });

  it('a no-JS submit makes a link checkout (description, metadata, paymentLinkId, email, URLs); the same nonce again 303s to it', async () => {
    const link = await newLink(fx, {
      name: 'Coffee',
      amount: '12.5',
      collectEmail: 'required',
      metadata: { campaign: 'spring' },
      successUrl: 'https://shop.example/thanks/{CHECKOUT_ID}',
    });
    const page = await fx.app.inject({ method: 'GET', url: `/l/${link.slug}` });
    const nonce = nonceOf(page);
    const missing = await submit(fx, link.slug, { nonce });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('id="email-error"');
    const res = await submit(fx, link.slug, { nonce, email: 'payer@example.com' });
    expect(res.statusCode, res.body).toBe(303);
    const made = await checkoutOf(res.headers.location);
    expect(made).toMatchObject({
      status: 'open',
      amount: '12.5',
      description: 'Coffee',
      metadata: { campaign: 'spring' },
      paymentLinkId: link.id,
      customerEmail: 'payer@example.com',
      successUrl: `https://shop.example/thanks/${made.id}`,
    });
    expect(new URL(made.cancelUrl!).pathname).toBe(`/l/${link.slug}`);
    const again = await submit(fx, link.slug, { nonce, email: 'payer@example.com' });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(res.headers.location);
    expect(await count(link.id)).toBe(1);
  });

  it('a typed amount is checked against the bounds and the decimals; the checkout takes it', async () => {
    const link = await newLink(fx, { name: 'Tip', minAmount: '5', maxAmount: '50' });
    for (const amount of ['4.99', '50.01', '5.1234567', '']) {
      const res = await openAndPay(fx, link.slug, { amount });
      expect(res.statusCode, amount).toBe(400);
      expect(res.body).toContain('id="amount-error"');
    }
    const res = await openAndPay(fx, link.slug, { amount: '7.25' });
    expect(res.statusCode, res.body).toBe(303);
    expect((await checkoutOf(res.headers.location)).amount).toBe('7.25');
    expect(await count(link.id)).toBe(1);
  });

  it('a post from another site is a 403 page and makes nothing; an old nonce is refused', async () => {
    const link = await newLink(fx, { name: 'Cross', amount: '10' });
    const page = await fx.app.inject({ method: 'GET', url: `/l/${link.slug}` });
    const cross = await submit(fx, link.slug, { nonce: nonceOf(page) }, { 'sec-fetch-site': 'cross-site' });
    expect(cross.statusCode).toBe(403);
    expect(cross.body).toContain('only be sent from its own page');
    const old = `${(fx.now() - 11 * 60_000).toString(36)}.AAAAAAAAAAAAAAAAAAAAAA`;
    const stale = await submit(fx, link.slug, { nonce: old });
    expect(stale.statusCode).toBe(400);
    expect(stale.body).toContain('older than 10 minutes');
    expect(await count(link.id)).toBe(0);
  });

  it.each([
    ['inactive', { active: false }, 'This payment link is inactive'],
    ['expired', { expiresAt: 'soon' }, 'This payment link has expired'],
    ['used_up', { maxUses: 1 }, 'This payment link is used up'],
  ] as const)('a link that is %s answers 410 on the page and on the POST, saying so', async (reason, change, words) => {
    const link = await newLink(fx, { name: `Gone ${reason}`, amount: '10' });
    const page = await fx.app.inject({ method: 'GET', url: `/l/${link.slug}` });
    const nonce = nonceOf(page);
    if (reason === 'used_up') {
      await checkoutCall(fx, fx.demo, 'PATCH', `${LINKS}/${link.id}`, change, {
        'idempotency-key': `gone-${reason}-${dialect}`,
      });
      // One live checkout takes the only use.
      expect((await openAndPay(fx, link.slug)).statusCode).toBe(303);
    } else if (reason === 'expired') {
      await checkoutCall(
        fx,
        fx.demo,
        'PATCH',
        `${LINKS}/${link.id}`,
        { expiresAt: new Date(fx.now() + 60_000).toISOString() },
        { 'idempotency-key': `gone-${reason}-${dialect}` },
      );
      fx.clock.offsetMs += 120_000;
    } else
      await checkoutCall(fx, fx.demo, 'PATCH', `${LINKS}/${link.id}`, change, {
        'idempotency-key': `gone-${reason}-${dialect}`,
      });
    const shown = await fx.app.inject({ method: 'GET', url: `/l/${link.slug}` });
    expect(shown.statusCode).toBe(410);
    expect(shown.body).toContain(words);
    expect(shown.body).toContain(`data-reason="${reason}"`);
    const posted = await submit(fx, link.slug, { nonce });
    expect(posted.statusCode).toBe(410);
    expect(posted.body).toContain(words);
    // Without a (valid) nonce too: the answer is why the link takes nothing, not "reload the form".
    for (const fields of [{}, { nonce: 'stale' }]) {
      const bare = await submit(fx, link.slug, fields);
      expect(bare.statusCode).toBe(410);
      expect(bare.body).toContain(`data-reason="${reason}"`);
    }
    expect(await count(link.id)).toBe(reason === 'used_up' ? 1 : 0);
    const read = resultOf<Link>(await checkoutCall(fx, fx.demo, 'GET', `${LINKS}/${link.id}`));
    // The object says what the page says: a live checkout holds the last use (status used_up),
    // though only settled ones are counted in uses.
    expect(read.status).toBe(reason);
    expect(Number(read.uses)).toBe(0);
    expect(read.cancelUrl).toBe(link.url);
    fx.clock.offsetMs = 0;
  });

  it('an expired checkout frees its use; a settled one keeps it (uses, status used_up)', async () => {
    const link = await newLink(fx, { name: 'One only', amount: '10', maxUses: 1 });
    const first = await openAndPay(fx, link.slug);
    expect(first.statusCode).toBe(303);
    expect((await fx.app.inject({ method: 'GET', url: `/l/${link.slug}` })).statusCode).toBe(410);
    fx.clock.offsetMs += 3600_000;
    const moved = await fx.services.checkouts.expireDue();
    expect(moved).toBeGreaterThan(0);
    fx.clock.offsetMs = 0;
    const second = await openAndPay(fx, link.slug);
    expect(second.statusCode).toBe(303);
    const id = second.headers.location!.slice('/pay/'.length);
    const paid = await checkoutCall(
      fx,
      fx.demo,
      'POST',
      `/api/v1/cp/psp/hosted-pay/${id}/simulate-payment`,
      { asset: 'USDT', chain: 'TRON' },
      { 'idempotency-key': `sim-${id}` },
    );
    expect(paid.statusCode, paid.body).toBe(200);
    const read = resultOf<Link>(await checkoutCall(fx, fx.demo, 'GET', `${LINKS}/${link.id}`));
    expect(read).toMatchObject({ uses: '1', status: 'used_up' });
  });
});

describeStores('payment link page limits', (dialect) => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true, linkCheckoutsPerAddressPerMinute: 2 }, {}, dialect);
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  it('creates per client address are limited: a 429 page with Retry-After, nothing made; another /64 still pays', async () => {
    const link = await newLink(fx, { name: 'Limited', amount: '10' });
    const from = (ip: string) => ({ remoteAddress: ip });
    const pay = async (ip: string) => {
      const page = await fx.app.inject({ method: 'GET', url: `/l/${link.slug}`, ...from(ip) });
      return fx.app.inject({
        method: 'POST',
        url: `/l/${link.slug}`,
        ...from(ip),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `nonce=${encodeURIComponent(nonceOf(page))}`,
      });
    };
    expect((await pay('2001:db8:1:2::10')).statusCode).toBe(303);
    expect((await pay('2001:db8:1:2:ffff::1')).statusCode).toBe(303);
    const over = await pay('2001:db8:1:2::99');
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    expect(over.body).toContain('Too many requests');
    expect((await pay('2001:db8:1:3::1')).statusCode).toBe(303);
    const made = await fx.services.store.db
      .selectFrom('checkouts')
      .select('id')
      .where('payment_link_id', '=', link.id)
      .execute();
    expect(made.length).toBe(3);
  });

  it('used form nonces are kept a day, then pruned (at most hourly) by a later submit', async () => {
    const link = await newLink(fx, { name: 'Prune', amount: '3' });
    const db = fx.services.store.db;
    const at = (msAgo: number) => new Date(fx.now() - msAgo).toISOString();
    await db
      .insertInto('payment_link_submissions')
      .values([
        { nonce: 'old-nonce-prune', payment_link_id: link.id, checkout_id: null, created_at: at(27 * 3_600_000) },
        { nonce: 'new-nonce-prune', payment_link_id: link.id, checkout_id: null, created_at: at(21 * 3_600_000) },
      ])
      .execute();
    // Past the hour since this process's last prune, a submit prunes.
    fx.clock.offsetMs += 2 * 3_600_000;
    try {
      expect((await openAndPay(fx, link.slug)).statusCode).toBe(303);
    } finally {
      fx.clock.offsetMs -= 2 * 3_600_000;
    }
    const left = await db
      .selectFrom('payment_link_submissions')
      .select('nonce')
      .where('nonce', 'in', ['old-nonce-prune', 'new-nonce-prune'])
      .execute();
    expect(left.map((r) => r.nonce)).toEqual(['new-nonce-prune']);
  });

  it('links and invoices share one budget per client address: two link checkouts, then an invoice Pay is 429', async () => {
    const link = await newLink(fx, { name: 'Shared', amount: '10' });
    const ip = { remoteAddress: '2001:db8:77:1::5' };
    for (let i = 0; i < 2; i++) {
      const nonce = nonceOf(await fx.app.inject({ method: 'GET', url: `/l/${link.slug}`, ...ip }));
      const res = await fx.app.inject({
        method: 'POST',
        url: `/l/${link.slug}`,
        ...ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `nonce=${encodeURIComponent(nonce)}`,
      });
      expect(res.statusCode).toBe(303);
    }
    const draft = resultOf<{ id: string }>(
      await checkoutCall(
        fx,
        fx.demo,
        'POST',
        '/api/v1/cp/invoices',
        { currency: 'USDT', lineItems: [{ description: 'x', quantity: 1, unitAmount: '5' }] },
        { 'idempotency-key': `shared-${dialect}` },
      ),
    );
    const open = resultOf<{ url: string }>(
      await checkoutCall(
        fx,
        fx.demo,
        'POST',
        `/api/v1/cp/invoices/${draft.id}/finalize`,
        {},
        {
          'idempotency-key': `shared-fin-${dialect}`,
        },
      ),
    );
    const path = new URL(open.url).pathname;
    const nonce = nonceOf(await fx.app.inject({ method: 'GET', url: path, ...ip }));
    const pay = (from: { remoteAddress: string }) =>
      fx.app.inject({
        method: 'POST',
        url: path,
        ...from,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        payload: `nonce=${encodeURIComponent(nonce)}`,
      });
    const refused = await pay(ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Another /64 still pays the invoice.
    expect((await pay({ remoteAddress: '2001:db8:77:2::5' })).statusCode).toBe(303);
  });

  it('only a create is counted: a typed amount out of bounds and a resubmit of the same form cost nothing', async () => {
    const link = await newLink(fx, { name: 'Typed', amount: null, minAmount: '5', maxAmount: '50' });
    const ip = { remoteAddress: '2001:db8:9:9::1' };
    const post = (nonce: string, amount: string) =>
      fx.app.inject({
        method: 'POST',
        url: `/l/${link.slug}`,
        ...ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `nonce=${encodeURIComponent(nonce)}&amount=${amount}`,
      });
    const nonce = nonceOf(await fx.app.inject({ method: 'GET', url: `/l/${link.slug}`, ...ip }));
    // Three typos, over a limit of 2 creates a minute: each answers the form again, never 429.
    for (const typo of ['1', '500', '1.2.3']) expect((await post(nonce, typo)).statusCode).toBe(400);
    const made = await post(nonce, '12.5');
    expect(made.statusCode, made.body).toBe(303);
    // The same form sent again goes to the same checkout, also without counting.
    for (let i = 0; i < 3; i++) expect((await post(nonce, '12.5')).headers.location).toBe(made.headers.location);
    // The nonce names its checkout in the checkout's own commit (a crash after it loses nothing).
    const row = await fx.services.store.db
      .selectFrom('payment_link_submissions')
      .select('checkout_id')
      .where('nonce', '=', nonce)
      .executeTakeFirstOrThrow();
    expect(`/pay/${row.checkout_id}`).toBe(made.headers.location);
    // One more create is still within the limit of 2; the third is refused.
    const second = nonceOf(await fx.app.inject({ method: 'GET', url: `/l/${link.slug}`, ...ip }));
    expect((await post(second, '20')).statusCode).toBe(303);
    const third = nonceOf(await fx.app.inject({ method: 'GET', url: `/l/${link.slug}`, ...ip }));
    expect((await post(third, '20')).statusCode).toBe(429);
  });
});
