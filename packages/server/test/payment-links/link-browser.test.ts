import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsEnabled, launchChromium } from '../browser/chromium.js';
import { pageGuard } from '../browser/guard.js';
import { checkEveryLanguage } from '../browser/languages.js';
import { checkPublicPage, PHONE } from '../browser/public-page.js';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { simulate } from '../pay/helpers.js';
import { LINKS, newLink, openAndPay } from './helpers.js';

const OUT = fileURLToPath(new URL('../../../../test-output/pay-page/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../../docs/img/', import.meta.url));
/** The demo's TRON explorer (src/demo/explorers.ts), which the fixture's demo seed sets. */
const TRONSCAN = 'https://tronscan.org/#/transaction/';

interface Made {
  id: string;
  status: string;
  amount: string;
  currency: string;
  customerEmail: string | null;
  paymentLinkId: string | null;
  receiptNumber: string | null;
  payments: { txHash: string }[];
}

/**
 * A payer in Chromium on a 360 px phone, from a payment link to its receipt (spec/commerce.md,
 * "Payment links" and "Receipts"), and the link's page in each state held to the payment page's
 * standards. HOSTPAY_SCREENSHOTS=docs also writes docs/img/payment-link.png.
 */
describe.runIf(browserTestsEnabled())('a payment link in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let page: Page;
  const guard = pageGuard();

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
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

  const checkout = async (id: string) =>
    resultOf<Made>(await checkoutCall(fx, fx.demo, 'GET', `/api/v1/cp/psp/hosted-pay/${id}`));

  it('the payer types an amount within the bounds and an email, pays, sees Paid, and the receipt shows amount, number and the linked hash', async () => {
    const link = await newLink(fx, {
      name: 'Support the library',
      description: 'Any amount from 5 to 500 USDT keeps the reading room open.',
      minAmount: '5',
      maxAmount: '500',
      collectEmail: 'required',
    });
    expect(link.url).toBe(`${base}/l/${link.slug}`);
    await checkPublicPage(page, link.url, 200, 'active link');
    expect(await page.locator('h1').textContent()).toBe('Support the library');
    const amount = page.getByLabel('Amount (USDT)');
    const email = page.getByLabel('Email');
    await amount.fill('25');
    await email.fill('reader@example.com');
    await page.screenshot({ path: `${OUT}payment-link.png`, fullPage: true });
    if (process.env.HOSTPAY_SCREENSHOTS === 'docs')
      await page.screenshot({ path: `${DOCS}payment-link.png`, fullPage: true });

    // Out of bounds, the browser keeps the form (min and max on the field): nothing is made.
    await amount.fill('500.01');
    await page.getByRole('button', { name: 'Pay' }).click();
    expect(await amount.evaluate((el: HTMLInputElement) => el.validity.rangeOverflow)).toBe(true);
    expect(page.url()).toBe(link.url);

    await amount.fill('12.34');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/pay\/chk_[A-Za-z0-9]+$/);
    const id = new URL(page.url()).pathname.slice('/pay/'.length);
    expect(await checkout(id)).toMatchObject({
      amount: '12.34',
      currency: 'USDT',
      customerEmail: 'reader@example.com',
      paymentLinkId: link.id,
      status: 'open',
    });
    expect(await page.locator('[data-state-title]').textContent()).toBe('Waiting for your payment');
    expect(await page.locator('.desc').textContent()).toBe(link.description);

    await simulate(fx, id, { asset: 'USDT', chain: 'TRON' });
    await page.locator('[data-state-title]', { hasText: 'Paid' }).waitFor({ timeout: 3_000 });
    const paid = await checkout(id);
    expect(paid.receiptNumber).toMatch(/^RCPT-\d{6}$/);
    // Shown live from /status: the payer never reloads the page.
    const receiptLink = page.getByRole('link', { name: `View your receipt ${paid.receiptNumber}` });
    await receiptLink.waitFor({ timeout: 3_000 });
    await receiptLink.click();
    await page.waitForURL(`${base}/pay/${id}/receipt`);
    expect(await page.locator('[data-receipt-number]').textContent()).toBe(paid.receiptNumber);
    const body = (await page.locator('main').textContent()) ?? '';
    expect(await page.locator('tfoot strong').textContent()).toBe('12.34 USDT'); // the total
    const tx = paid.payments[0]!.txHash;
    const hash = page.locator(`a[href="${TRONSCAN}${encodeURIComponent(tx)}"]`);
    expect(await hash.locator('code').textContent()).toBe(tx);
    expect(body).not.toContain('reader@example.com'); // never the payer's email on a receipt
  }, 60_000);

  it('each page that makes no checkout (inactive, expired, used up) answers 410 and says which, to the same standards', async () => {
    const patch = (id: string, body: Record<string, unknown>) =>
      checkoutCall(fx, fx.demo, 'PATCH', `${LINKS}/${id}`, body, { 'idempotency-key': `b-${id}-${Date.now()}` });
    const inactive = await newLink(fx, { name: 'Switched off', amount: '10' });
    expect((await patch(inactive.id, { active: false })).statusCode).toBe(200);
    const used = await newLink(fx, { name: 'One seat', amount: '10', maxUses: 1 });
    const made = await openAndPay(fx, used.slug);
    expect(made.statusCode).toBe(303);
    await simulate(fx, made.headers.location!.slice('/pay/'.length), { asset: 'USDT', chain: 'TRON' });
    const expired = await newLink(fx, { name: 'Spring sale', amount: '10' });
    expect((await patch(expired.id, { expiresAt: new Date(fx.now() + 60_000).toISOString() })).statusCode).toBe(200);
    fx.clock.offsetMs += 120_000;
    try {
      for (const [reason, link, title] of [
        ['inactive', inactive, 'This payment link is inactive'],
        ['expired', expired, 'This payment link has expired'],
        ['used_up', used, 'This payment link is used up'],
      ] as const) {
        guard.expectError(/status of 410/);
        await checkPublicPage(page, link.url, 410, `${reason} link`);
        expect(await page.locator('[data-reason]').getAttribute('data-reason')).toBe(reason);
        expect(await page.locator('#state-title').textContent()).toBe(title);
        expect(await page.locator('form').count()).toBe(0);
        await page.screenshot({ path: `${OUT}payment-link-${reason}.png`, fullPage: true });
      }
    } finally {
      fx.clock.offsetMs = 0;
    }
  }, 60_000);

  it('the link page speaks every language: a fixed price, line items, an amount to type, the unavailable page; Arabic right to left', async () => {
    // A context of its own: the language picked here is remembered in a cookie.
    const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    const tab = guard.watch(await context.newPage());
    try {
      const fixed = await newLink(fx, { name: 'Concert ticket', amount: '40', collectEmail: 'required' });
      const items = await newLink(fx, {
        name: 'Workshop bundle',
        lineItems: [
          { name: 'Workshop seat', quantity: 2, unitAmount: '15' },
          { name: 'Printed handbook', quantity: 1, unitAmount: '9.5' },
        ],
      });
      const typed = await newLink(fx, {
        name: 'Donation',
        currency: 'USD',
        minAmount: '5',
        maxAmount: '500',
        collectEmail: 'optional',
      });
      const gone = await newLink(fx, { name: 'Sold out', amount: '10' });
      const off = await checkoutCall(
        fx,
        fx.demo,
        'PATCH',
        `${LINKS}/${gone.id}`,
        { active: false },
        {
          'idempotency-key': `lang-off-${gone.id}`,
        },
      );
      expect(off.statusCode).toBe(200);
      for (const [link, what] of [
        [fixed, 'link with a fixed price'],
        [items, 'link with line items'],
        [typed, 'link with an amount to type'],
      ] as const) {
        const facts = await checkEveryLanguage(tab, link.url, what);
        expect(facts.find((f) => f.lang === 'ja')?.text, what).toContain('支払う');
      }
      guard.expectError(/status of 410/);
      await checkEveryLanguage(tab, gone.url, 'unavailable link');

      await tab.goto(`${typed.url}?lang=ar`);
      expect(await tab.evaluate(() => getComputedStyle(document.querySelector('main')!).direction)).toBe('rtl');
      expect(await tab.locator('label[for="amount"]').textContent()).toBe('المبلغ (USD)');
      // The amount field and the email stay left to right inside the Arabic page.
      expect(await tab.locator('#amount').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
      await tab.goto(`${items.url}?lang=ar`);
      expect(
        await tab
          .locator('.items bdi')
          .first()
          .evaluate((el) => getComputedStyle(el).direction),
      ).toBe('ltr');
      await tab.screenshot({ path: `${OUT}payment-link-ar.png`, fullPage: true });
    } finally {
      await context.close();
    }
  }, 240_000);
});
