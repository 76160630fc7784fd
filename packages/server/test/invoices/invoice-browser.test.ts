import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsEnabled, launchChromium } from '../browser/chromium.js';
import { pageGuard } from '../browser/guard.js';
import { checkPublicPage, PHONE } from '../browser/public-page.js';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { simulate } from '../pay/helpers.js';

const OUT = fileURLToPath(new URL('../../../../test-output/pay-page/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../../docs/img/', import.meta.url));
const P = '/api/v1/cp/invoices';

interface Inv {
  id: string;
  number: string;
  status: string;
  amountPaid: string;
  amountDue: string;
  url: string;
  checkoutIds: string[];
}

/**
 * An invoice in Chromium on a 360 px phone (spec/commerce.md, "Invoices"): paid in two parts by a
 * payer who goes from the invoice to the payment page twice, and its page in every state (open,
 * partially paid, paid, void) held to the payment page's standards. HOSTPAY_SCREENSHOTS=docs also
 * writes docs/img/invoice.png.
 */
describe.runIf(browserTestsEnabled())('an invoice in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let page: Page;
  const guard = pageGuard();

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
    await fx.services.store.db
      .updateTable('merchants')
      .set({
        legal_name: 'Demo Shop Ltd',
        address: '1 Harbour Street\nDublin D02 XY45',
        tax_id: 'IE1234567T',
        support_email: 'billing@shop.example',
      })
      .where('id', '=', fx.demo.merchantId)
      .execute();
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      colorScheme: 'light',
    });
    page = guard.watch(await context.newPage());
  }, 60_000);
  afterEach(() => guard.check());
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  let keys = 0;
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
    checkoutCall(fx, fx.demo, method, url, body ?? (method === 'POST' ? {} : undefined), {
      ...(method === 'POST' ? { 'idempotency-key': `inv-browser-${++keys}-${Date.now()}` } : {}),
    });
  const invoice = async (id: string) => resultOf<Inv>(await call('GET', `${P}/${id}`));
  const finalized = async (body: Record<string, unknown>) => {
    const draft = await call('POST', P, { currency: 'USDT', ...body });
    expect(draft.statusCode, draft.body).toBe(201);
    const open = await call('POST', `${P}/${resultOf<Inv>(draft).id}/finalize`);
    expect(open.statusCode, open.body).toBe(200);
    return resultOf<Inv>(open);
  };
  /** Presses Pay on the invoice page: the payment page of the checkout it made. */
  const pay = async (label: string) => {
    await page.getByRole('button', { name: label }).click();
    await page.waitForURL(/\/pay\/chk_[A-Za-z0-9]+$/);
    return new URL(page.url()).pathname.slice('/pay/'.length);
  };

  it('is paid in two parts from its page: open, partially paid, paid; each page to the standards', async () => {
    const inv = await finalized({
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      lineItems: [
        { description: 'Web hosting, March', quantity: 1, unitAmount: '80' },
        { description: 'Backup storage (GB)', quantity: 20, unitAmount: '1' },
      ],
      memo: 'Thank you for your business.',
      dueAt: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    });
    expect(inv.url.startsWith(`${base}/i/`)).toBe(true);
    await checkPublicPage(page, inv.url, 200, 'open invoice');
    expect(await page.locator('.desc').textContent()).toBe(`Invoice ${inv.number} · Open`);
    await page.screenshot({ path: `${OUT}invoice.png`, fullPage: true });
    if (process.env.HOSTPAY_SCREENSHOTS === 'docs')
      await page.screenshot({ path: `${DOCS}invoice.png`, fullPage: true });

    // The first part: 40 of 100 arrive, the checkout ends underpaid, the operator settles it.
    const a = await pay('Pay 100 USDT');
    await simulate(fx, a, { asset: 'USDT', chain: 'TRON', amount: '40' });
    await page.locator('[data-state-title]', { hasText: 'Partly paid' }).waitFor({ timeout: 3_000 });
    fx.clock.offsetMs += 3_600_000;
    try {
      await fx.services.checkouts.expireDue();
      await fx.services.checkouts.settleReview(a, { asset: 'USDT', chain: 'TRON' }, { operator: 'test' });
    } finally {
      fx.clock.offsetMs = 0;
    }
    expect(await invoice(inv.id)).toMatchObject({ status: 'partially_paid', amountPaid: '40', amountDue: '60' });
    await checkPublicPage(page, inv.url, 200, 'partially paid invoice');
    expect(await page.locator('.desc').textContent()).toBe(`Invoice ${inv.number} · Partially paid`);
    await page.screenshot({ path: `${OUT}invoice-partially-paid.png`, fullPage: true });

    // The rest: Pay asks for what is due, the payer pays it and sees Paid and the receipt link.
    const b = await pay('Pay 60 USDT');
    expect(b).not.toBe(a);
    await simulate(fx, b, { asset: 'USDT', chain: 'TRON' });
    await page.locator('[data-state-title]', { hasText: 'Paid' }).waitFor({ timeout: 3_000 });
    await page.getByRole('link', { name: /^View your receipt RCPT-\d{6}$/ }).waitFor({ timeout: 3_000 });
    const paid = await invoice(inv.id);
    expect(paid).toMatchObject({ status: 'paid', amountPaid: '100', amountDue: '0' });
    expect(paid.checkoutIds).toEqual([a, b]);
    await checkPublicPage(page, inv.url, 200, 'paid invoice');
    expect(await page.locator('#state-title').textContent()).toBe('Paid');
    expect(await page.locator('form').count()).toBe(0);
    await page.screenshot({ path: `${OUT}invoice-paid.png`, fullPage: true });
  }, 90_000);

  it('a void invoice says so, with nothing to pay, to the same standards', async () => {
    const inv = await finalized({ lineItems: [{ description: 'Consulting', quantity: 2, unitAmount: '45.5' }] });
    const voided = await call('POST', `${P}/${inv.id}/void`);
    expect(voided.statusCode, voided.body).toBe(200);
    await checkPublicPage(page, inv.url, 200, 'void invoice');
    expect(await page.locator('#state-title').textContent()).toBe('This invoice is void');
    expect(await page.locator('form').count()).toBe(0);
    await page.screenshot({ path: `${OUT}invoice-void.png`, fullPage: true });
  });
});
