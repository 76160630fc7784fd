import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../browser/axe.js';
import { browserTestsEnabled, launchChromium } from '../browser/chromium.js';
import { pageGuard } from '../browser/guard.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { createCheckout, simulate } from './helpers.js';

const OUT = fileURLToPath(new URL('../../../../test-output/pay-page/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../../docs/img/', import.meta.url));
/** The receipt's first load (HTML, CSS, headers included, uncompressed), as the payment page's 60 KB. */
const BUDGET = 60 * 1024;

describe.runIf(browserTestsEnabled())('the receipt in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const guard = pageGuard();

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
    await fx.services.store.db
      .updateTable('merchants')
      .set({
        display_name: 'Книжная лавка Σοφία',
        legal_name: 'ООО «Лавка»',
        address: 'ул. Пушкина 10\nМосква 101000',
        tax_id: 'RU7701234567',
        support_email: 'help@lavka.example',
      })
      .where('id', '=', fx.demo.merchantId)
      .execute();
    await fx.services.admin.updateChain(
      'TRON',
      { explorerTxUrl: 'https://tronscan.org/#/transaction/{tx}' },
      { operator: 'test' },
    );
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
    });
    page = await context.newPage();
    page.on('request', (r) => requests.push(r.url()));
    guard.watch(page);
  }, 60_000);
  afterEach(() => guard.check());
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('the Paid screen links to the receipt; it is axe clean, fits 360 px, stays on the server and within budget', async () => {
    const c = await createCheckout(fx, {
      amount: 42.5,
      currency: 'USDT',
      description: 'Βιβλίο και παράδοση',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '42.5' });
    await page.goto(`${base}/pay/${c.id}`);
    await page.getByRole('link', { name: /View your receipt RCPT-/ }).click();
    await page.waitForURL(`${base}/pay/${c.id}/receipt`);
    requests.length = 0;
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.getByRole('heading', { name: 'Receipt', level: 1 }).count()).toBe(1);
    expect(await page.locator('[data-receipt-number]').textContent()).toMatch(/^RCPT-\d{6}$/);
    expect(await page.locator('body').textContent()).toContain('1 USDT = 1 USDT');
    expect(requests.every((u) => u.startsWith(base))).toBe(true);
    // What the browser loaded (the page and its stylesheet), fetched again to count the bytes.
    let bytes = 0;
    for (const url of new Set(requests)) {
      const r = await fetch(url);
      bytes += (await r.arrayBuffer()).byteLength;
      r.headers.forEach((v, k) => {
        bytes += k.length + v.length + 4;
      });
    }
    expect(bytes).toBeGreaterThan(1000);
    expect(bytes).toBeLessThan(BUDGET);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page), scheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: `${OUT}receipt.png`, fullPage: true });
    if (process.env.HOSTPAY_SCREENSHOTS === 'docs')
      await page.screenshot({ path: `${DOCS}receipt.png`, fullPage: true });
    guard.expectError(/status of 404 .*\/receipt$/);
    const notFound = await page.goto(`${base}/pay/${c.id.slice(0, -1)}x/receipt`);
    expect(notFound?.status()).toBe(404);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("an invoice's receipt, with its Tax column and a long line, fits 360 px and is axe clean", async () => {
    const m = fx.demo.merchantId;
    const draft = await fx.services.invoices.create(m, {
      currency: 'USDT',
      customer: { name: 'Ada' },
      lineItems: [
        {
          description: 'Консультация по настройке платёжного шлюза',
          quantity: '12.5',
          unitAmount: '119.99',
          taxPercent: '19.5',
        },
        { description: 'Stamp', quantity: 1, unitAmount: '0.05' },
      ],
    });
    const inv = (await fx.services.invoices.finalize(m, draft.id as string)) as { id: string; total: number };
    const c = await fx.services.checkouts.createFrom(
      m,
      { amount: String(inv.total), currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] },
      { origin: { invoiceId: inv.id } },
    );
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: String(inv.total) });
    await page.goto(`${base}/pay/${c.id}/receipt`, { waitUntil: 'networkidle' });
    expect(await page.locator('[data-receipt-reference]').textContent()).toMatch(/^Invoice INV-\d{6}$/);
    expect(await page.getByRole('columnheader', { name: 'Tax' }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // The items table stays inside its card (amounts wrap between figure and code, never inside a figure).
    const overflow = await page.evaluate(() => {
      const table = document.querySelector('.receipt table')!;
      return table.getBoundingClientRect().right - table.closest('section')!.getBoundingClientRect().right;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page), scheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.screenshot({ path: `${OUT}receipt-invoice.png`, fullPage: true });
  });
});
