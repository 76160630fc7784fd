import { capabilityHash } from '../../src/crypto/capability-token.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUND_PAGE_CSP } from '../../src/features/refunds/page-routes.js';

import { DIALECTS, type Dialect } from '../helpers.js';
import { cancel, createCheckout } from '../pay/helpers.js';
import { errorCode, exact, paidCheckout, pathOf, type RefundFixture, refundFixture, refundLink } from './helpers.js';

interface Link {
  id: string;
  checkoutId: string;
  url: string;
  amount: string | null;
  asset: string;
  chain: string;
  expiresAt: string;
}

function expectPageHeaders(res: { headers: Record<string, unknown> }): void {
  expect(res.headers['content-security-policy']).toBe(REFUND_PAGE_CSP);
  expect(String(res.headers['content-security-policy'])).not.toContain('unsafe');
  expect(String(res.headers['content-security-policy'])).toContain("form-action 'self'");
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['cache-control']).toBe('no-store');
}

describe.each(DIALECTS)('refund links on %s', (dialect: Dialect) => {
  let fx: RefundFixture;
  beforeAll(async () => {
    fx = await refundFixture(dialect);
  });
  afterAll(() => fx.drop());
  const get = (path: string) => fx.app.inject({ method: 'GET', url: path });

  it('a settled checkout: 201 with a URL on the hosted page, 7 days, only a hash of its token stored; the page shows the form', async () => {
    const id = await paidCheckout(fx);
    const res = await refundLink(fx, id, { amount: '40' });
    expect(res.statusCode, res.body).toBe(201);
    const link = exact<Link>(res);
    expect(link).toMatchObject({ checkoutId: id, amount: '40', asset: 'USDT', chain: 'TRON' });
    expect(link.id).toMatch(/^rfl_/);
    expect(Date.parse(link.expiresAt) - fx.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    const path = pathOf(link.url);
    const token = path.split('/').pop()!;
    expect(path).toBe(`/pay/${id}/refund/${token}`);
    const stored = await fx.services.store.db
      .selectFrom('refund_links')
      .selectAll()
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(capabilityHash(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    const page = await get(path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expectPageHeaders(page);
    expect(page.body).toContain('<h1>Demo Shop</h1>');
    expect(page.body).toContain('<p class="amount"><bdi dir="ltr">40\u00a0USDT</bdi></p>');
    expect(page.body).toContain(`<form class="card refund" method="post" action="${path}">`);
    expect(page.body).toMatch(/<label for="address">Your USDT address on [^<]+<\/label>/);
    expect(page.body).toContain('pattern="T[1-9A-HJ-NP-Za-km-z]{33}"');
    expect(page.body).not.toMatch(/<script|<style|style=|\son[a-z]+=/);
  });

  it('without an amount the link refunds whatever is left; more than the checkout received is 422 and writes no link', async () => {
    const id = await paidCheckout(fx);
    const whole = exact<Link>(await refundLink(fx, id));
    expect(whole.amount).toBeNull();
    expect((await get(pathOf(whole.url))).body).toContain('<p class="amount"><bdi dir="ltr">100\u00a0USDT</bdi></p>');
    const before = await fx.services.store.db.selectFrom('refund_links').select('id').execute();
    const over = await refundLink(fx, id, { amount: '100.000001' });
    expect(over.statusCode).toBe(422);
    expect(errorCode(over)).toBe('REFUND_TOO_LARGE');
    expect(JSON.parse(over.body).error.details).toMatchObject({ refundable: 100, asset: 'USDT', chain: 'TRON' });
    expect(await fx.services.store.db.selectFrom('refund_links').select('id').execute()).toHaveLength(before.length);
  });

  it("a checkout that received nothing is 409; another merchant's checkout is 404; a bad amount is 400; a key without payouts:write is 403", async () => {
    const open = await createCheckout(fx, {
      amount: '10',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    const openRes = await refundLink(fx, open.id);
    expect(openRes.statusCode).toBe(409);
    expect(errorCode(openRes)).toBe('CHECKOUT_STATE_CONFLICT');
    await cancel(fx, open.id);
    expect((await refundLink(fx, open.id)).statusCode).toBe(409);
    const other = await fx.createKey(await fx.createMerchant('Other Shop'), { scopes: ['payouts:write'] });
    const id = await paidCheckout(fx);
    const theirs = await refundLink(fx, id, {}, other);
    expect(theirs.statusCode).toBe(404);
    expect(errorCode(theirs)).toBe('NOT_FOUND');
    for (const amount of ['0', '-1', '1e3', 'ten']) {
      const bad = await refundLink(fx, id, { amount });
      expect(bad.statusCode, amount).toBe(400);
      expect(errorCode(bad)).toBe('INVALID_AMOUNT');
    }
    // A key created without scopes has every scope but payouts:write: a link is money out.
    const plain = await refundLink(fx, id, {}, await fx.createKey(fx.demo.merchantId));
    expect(plain.statusCode).toBe(403);
    expect(errorCode(plain)).toBe('SCOPE_MISSING');
  });

  it('an unknown token, a token of another checkout or a malformed one is the 404 page; an expired link is 410', async () => {
    const id = await paidCheckout(fx);
    const link = exact<Link>(await refundLink(fx, id));
    const token = pathOf(link.url).split('/').pop()!;
    const otherId = await paidCheckout(fx);
    for (const path of [
      `/pay/${id}/refund/${'A'.repeat(43)}`,
      `/pay/${otherId}/refund/${token}`,
      `/pay/${id}/refund/short`,
      `/pay/${id}/refund/%3Cscript%3E`,
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expectPageHeaders(res);
      expect(res.body).toContain('Refund link not found');
      expect(res.body).not.toContain('<form');
    }
    fx.clock.offsetMs += 7 * 24 * 3600 * 1000 + 1000;
    try {
      const expired = await get(pathOf(link.url));
      expect(expired.statusCode).toBe(410);
      expect(expired.body).toContain('This refund link has expired');
      expect(expired.body).not.toContain('<form');
    } finally {
      fx.clock.offsetMs -= 7 * 24 * 3600 * 1000 + 1000;
    }
  });
});
