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
import { simulate } from '../pay/helpers.js';

interface Inv {
  id: string;
  number: string;
  total: number | string;
  url: string;
}

/**
 * The public invoice page in each of its languages in Chromium (360 px): an open and a paid
 * invoice held to the public pages' language checks, and Arabic mirrored with the invoice number
 * and amounts kept left to right.
 */
describe.runIf(browserTestsEnabled())('the invoice page in every language, in Chromium', () => {
  let fx: HttpFixture;
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
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    fx.services.setListenUrl(`http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`);
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

  /** A finalized invoice with a taxed line, a long description, a due date and a memo: the widest page. */
  const open = async (): Promise<Inv> => {
    const m = fx.demo.merchantId;
    const draft = await fx.services.invoices.create(m, {
      currency: 'USDT',
      customer: { name: 'Ada Lovelace', email: 'ada.lovelace@example.com' },
      lineItems: [
        { description: 'Web hosting, March', quantity: 1, unitAmount: '80', taxPercent: '19.5' },
        { description: 'Backup storage (GB)', quantity: '20', unitAmount: '1.25' },
      ],
      memo: 'Thank you for your business.',
      dueAt: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    });
    return (await fx.services.invoices.finalize(m, draft.id as string)) as unknown as Inv;
  };

  it('an open invoice: every language meets the public pages’ standards', async () => {
    const inv = await open();
    const facts = await checkEveryLanguage(page, inv.url, 'open invoice');
    expect(facts.map((f) => f.lang)).toEqual(LANGUAGES.map((l) => l.code));
    expect(facts.find((f) => f.lang === 'en')!.text).toContain(inv.number);
    for (const f of facts) expect(f.text, f.lang).toContain(inv.number);
  }, 120_000);

  it('a paid invoice: every language meets the public pages’ standards', async () => {
    const inv = await open();
    const c = await fx.services.checkouts.createFrom(
      fx.demo.merchantId,
      { amount: String(inv.total), currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] },
      { origin: { invoiceId: inv.id } },
    );
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: String(inv.total) });
    const facts = await checkEveryLanguage(page, inv.url, 'paid invoice');
    expect(facts.find((f) => f.lang === 'en')!.text).toContain('Paid');
    await page.goto(`${inv.url}?lang=en`);
    expect(await page.locator('form').count()).toBe(0);
  }, 120_000);

  it('Arabic reads right to left, with the invoice number and the amounts left to right', async () => {
    const inv = await open();
    await page.goto(`${inv.url}?lang=ar`, { waitUntil: 'load' });
    const facts = await page.evaluate((number) => {
      const ltrHolding = (needle: string) =>
        Array.from(document.querySelectorAll('main [dir=ltr]'))
          .filter((el) => (el.textContent ?? '').includes(needle))
          .map((el) => getComputedStyle(el).direction);
      const total = document.querySelector('tfoot tr:nth-child(3) td')!;
      return {
        main: getComputedStyle(document.querySelector('main')!).direction,
        number: ltrHolding(number),
        total: Array.from(total.querySelectorAll('[dir=ltr]')).map((el) => getComputedStyle(el).direction),
        totalText: total.textContent,
        pay: Array.from(document.querySelectorAll('button [dir=ltr]')).map((el) => getComputedStyle(el).direction),
      };
    }, inv.number);
    expect(facts.main).toBe('rtl');
    expect(facts.number.length).toBeGreaterThan(0);
    expect(new Set(facts.number)).toEqual(new Set(['ltr']));
    expect(facts.total, `the total ${facts.totalText}`).toEqual(['ltr']);
    expect(facts.pay).toEqual(['ltr']);
  });
});
