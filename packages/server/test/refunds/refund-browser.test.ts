import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SCOPES } from '@hostpay/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../browser/axe.js';
import { browserTestsEnabled, launchChromium } from '../browser/chromium.js';
import { pageGuard } from '../browser/guard.js';
import { checkEveryLanguage } from '../browser/languages.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';
import { exact, paidCheckout, type RefundFixture, refundLink, spareTronAddress } from './helpers.js';

/**
 * The payer's refund page in the system Chromium against the real server on a loopback socket:
 * a phone (360 px), the keyboard only, axe-core on every state shown, the page's real CSP (no
 * 'unsafe-inline'), and no request leaving the server.
 */
const OUT = fileURLToPath(new URL('../../../../test-output/refund-page/', import.meta.url));

describe.runIf(browserTestsEnabled())('the refund page in Chromium', () => {
  let fx: HttpFixture;
  let refunder: TestKey;
  let base: string;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const guard = pageGuard();

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
    refunder = await fx.createKey(fx.demo.merchantId, { scopes: [...SCOPES] });
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

  async function accessible(name: string): Promise<void> {
    await page.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
    expect(await axeViolations(page), name).toEqual([]);
    // Readable at 360 px: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(360);
  }

  it('a payer gives the address with the keyboard: a refused one is explained at the field, a good one requests the refund', async () => {
    const id = await paidCheckout(fx);
    const good = await spareTronAddress(fx);
    const link = exact<{ url: string }>(await refundLink({ ...fx, refunder } as RefundFixture, id, { amount: '25' }));
    expect(link.url.startsWith(`${base}/pay/${id}/refund/`)).toBe(true);

    const res = await page.goto(link.url);
    expect(res?.status()).toBe(200);
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe');
    await expect(page.locator('h1').textContent()).resolves.toBe('Demo Shop');
    await expect(page.locator('.amount').textContent()).resolves.toBe('25\u00a0USDT');
    await accessible('form');

    // The keyboard reaches the language picker, then the field; its label and hint are what a
    // screen reader announces.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('nav.lang') !== null)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('address');
    const described = await page.locator('#address').getAttribute('aria-describedby');
    expect(described).toBe('address-hint');

    // A TRON-shaped address with a broken checksum passes the browser's hint and is refused by the server.
    const broken = `${good.slice(0, -1)}${good.endsWith('A') ? 'B' : 'A'}`;
    await page.keyboard.type(broken);
    guard.expectError(/status of 400 .*\/refund\//); // the refused address, answered 400 on purpose
    const [posted] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.keyboard.press('Enter'),
    ]);
    expect(posted.status(), await posted.text()).toBe(400);
    await page.waitForSelector('#address-error');
    expect(await page.locator('#address-error').textContent()).toContain(
      'This is not an address the refund can be sent to',
    );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('address');
    expect(await page.locator('#address').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#address').getAttribute('aria-describedby')).toBe('address-hint address-error');
    await accessible('refused');

    // An Ethereum address is caught by the browser before any request: the page stays, nothing is sent.
    await page.fill('#address', '0x52908400098527886E0F7030069857D2E4169EE7');
    const before = requests.length;
    await page.keyboard.press('Enter');
    expect(await page.locator('#address').evaluate((el) => (el as HTMLInputElement).validity.patternMismatch)).toBe(
      true,
    );
    expect(requests.length).toBe(before);

    await page.fill('#address', good);
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
    await page.waitForSelector('text=Refund requested');
    expect(await page.locator('main').textContent()).toContain(good);
    await accessible('requested');

    // The link worked once: opened again, it says so (410, on purpose).
    guard.expectError(/status of 410 .*\/refund\//);
    const again = await page.goto(link.url);
    expect(again?.status()).toBe(410);
    expect(await page.locator('h2').first().textContent()).toContain('already used');
    await accessible('used');

    expect(requests.filter((u) => !u.startsWith(`${base}/`) && !u.startsWith('data:'))).toEqual([]);
  }, 60_000);

  it('the refund claim form speaks every language; in Arabic it is right to left, the address field left to right', async () => {
    const id = await paidCheckout(fx);
    const link = exact<{ url: string }>(await refundLink({ ...fx, refunder } as RefundFixture, id, { amount: '12.5' }));
    // A context of its own: the language picked here is remembered in a cookie.
    const context = await browser.newContext({
      viewport: { width: 360, height: 740 },
      deviceScaleFactor: 1,
      isMobile: true,
    });
    const tab = guard.watch(await context.newPage());
    try {
      const facts = await checkEveryLanguage(tab, link.url, 'refund claim form');
      expect(facts.find((f) => f.lang === 'de')?.text).toContain('Erstattung an diese Adresse senden');
      await tab.goto(`${link.url}?lang=ar`);
      expect(await tab.evaluate(() => getComputedStyle(document.querySelector('main')!).direction)).toBe('rtl');
      expect(await tab.locator('#address').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
      expect(await tab.locator('.amount bdi').textContent()).toBe('12.5\u00a0USDT');
      await tab.screenshot({ path: `${OUT}form-ar.png`, fullPage: true });
    } finally {
      await context.close();
    }
  }, 120_000);
});
