import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/i18n/languages.js';
import { browserTestsEnabled, launchChromium } from '../browser/chromium.js';
import { pageGuard } from '../browser/guard.js';
import { checkEveryLanguage } from '../browser/languages.js';
import { PHONE } from '../browser/public-page.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { createCheckout, simulate } from './helpers.js';

/**
 * The receipt in each of its languages in Chromium (360 px): a checkout's and an invoice's (with
 * its Tax column) held to the public pages' language checks, and Arabic mirrored with the
 * receipt number and the amounts kept left to right.
 */
describe.runIf(browserTestsEnabled())('the receipt in every language, in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const guard = pageGuard();

  beforeAll(async () => {
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
    await fx.services.admin.updateChain(
      'TRON',
      { explorerTxUrl: 'https://tronscan.org/#/transaction/{tx}' },
      { operator: 'test' },
    );
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    browser = await launchChromium();
    context = await browser.newContext({
      viewport: PHONE,
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      colorScheme: 'light',
    });
    page = guard.watch(await context.newPage());
  }, 60_000);
  afterEach(async () => {
    await context.clearCookies();
    await guard.check();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  /** A settled checkout paid for an invoice with a taxed line: the receipt's widest table. */
  const invoiceReceipt = async () => {
    const m = fx.demo.merchantId;
    const draft = await fx.services.invoices.create(m, {
      currency: 'USDT',
      customer: { name: 'Ada' },
      lineItems: [
        { description: 'Web hosting, March', quantity: '12.5', unitAmount: '119.99', taxPercent: '19.5' },
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
    return `${base}/pay/${c.id}/receipt`;
  };

  it('a settled checkout’s receipt: every language meets the public pages’ standards', async () => {
    const c = await createCheckout(fx, {
      amount: '25.5',
      currency: 'EUR',
      description: 'Two books',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON' });
    const facts = await checkEveryLanguage(page, `${base}/pay/${c.id}/receipt`, 'checkout receipt');
    expect(facts.map((f) => f.lang)).toEqual(LANGUAGES.map((l) => l.code));
    for (const f of facts) expect(f.text, f.lang).toMatch(/RCPT-\d{6}/);
  }, 120_000);

  it('an invoice’s receipt, with its Tax column: every language meets the public pages’ standards', async () => {
    const facts = await checkEveryLanguage(page, await invoiceReceipt(), 'invoice receipt');
    for (const f of facts) expect(f.text, f.lang).toMatch(/INV-\d{6}/);
  }, 120_000);

  it('Arabic reads right to left, with the receipt number and the amounts left to right', async () => {
    await page.goto(`${await invoiceReceipt()}?lang=ar`, { waitUntil: 'load' });
    const facts = await page.evaluate(() => {
      const dirs = (sel: string) =>
        Array.from(document.querySelectorAll(sel)).map((el) => getComputedStyle(el).direction);
      return {
        main: getComputedStyle(document.querySelector('main')!).direction,
        number: dirs('[data-receipt-number] [dir=ltr]'),
        reference: dirs('[data-receipt-reference] [dir=ltr]'),
        paid: dirs('tfoot tr:last-child td [dir=ltr]'),
        payment: dirs('.payments .num [dir=ltr]'),
      };
    });
    expect(facts.main).toBe('rtl');
    expect(facts.number).toEqual(['ltr']);
    expect(facts.reference).toEqual(['ltr']);
    expect(facts.paid).toEqual(['ltr']);
    expect(facts.payment).toEqual(['ltr']);
  });
});
