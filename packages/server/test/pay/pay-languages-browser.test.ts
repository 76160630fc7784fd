import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LANG_COOKIE } from '../../src/i18n/choose.js';
import { LANGUAGES } from '../../src/i18n/languages.js';
import { browserTestsEnabled, launchChromium } from '../browser/chromium.js';
import { pageGuard } from '../browser/guard.js';
import { checkEveryLanguage } from '../browser/languages.js';
import { PAGE_BUDGET, PHONE } from '../browser/public-page.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { type CreatedCheckout, createCheckout, simulate } from './helpers.js';

/**
 * The payment page in each of its languages in Chromium: the public pages' language checks
 * (checkEveryLanguage) on an open and a settled checkout, Arabic mirrored, the picker and its
 * remembered choice, live updates in the page's language, no layout shift and the first-load
 * budget in every language. HOSTPAY_SCREENSHOTS=docs writes docs/img/payment-page-{en,ja,ar}.png.
 */
const OUT = fileURLToPath(new URL('../../../../test-output/pay-page/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../../docs/img/', import.meta.url));

/** The page's cumulative layout shift so far (every shift since navigation, buffered by Chromium). */
const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        const observer = new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
            if (!e.hadRecentInput) total += e.value;
        });
        observer.observe({ type: 'layout-shift', buffered: true });
        // Two frames: every shift of the frames painted so far has been reported.
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            for (const e of observer.takeRecords() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
              if (!e.hadRecentInput) total += e.value;
            observer.disconnect();
            resolve(total);
          }),
        );
      }),
  );

describe.runIf(browserTestsEnabled())('the payment page in every language, in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const guard = pageGuard();
  let open: CreatedCheckout;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
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
    page = await context.newPage();
    guard.watch(page);
    open = await createCheckout(fx, {
      amount: '25.5',
      currency: 'EUR',
      description: 'Two books',
      paymentOptions: [
        { asset: 'USDT', chain: 'TRON' },
        { asset: 'USDT', chain: 'ETH' },
      ],
      successUrl: 'http://127.0.0.1:9/thanks',
      cancelUrl: 'http://127.0.0.1:9/cart',
    });
  }, 60_000);
  afterEach(async () => {
    await context.clearCookies();
    await guard.check();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('an open checkout: every language meets the public pages’ standards; screenshots in English, Japanese, Arabic', async () => {
    const facts = await checkEveryLanguage(page, open.url, 'open payment page');
    expect(facts.map((f) => f.lang)).toEqual(LANGUAGES.map((l) => l.code));
    for (const lang of ['en', 'ja', 'ar']) {
      await page.goto(`${open.url}?lang=${lang}`, { waitUntil: 'load' });
      await page.screenshot({ path: `${OUT}payment-page-${lang}.png`, fullPage: true });
      if (process.env.HOSTPAY_SCREENSHOTS === 'docs')
        await page.screenshot({ path: `${DOCS}payment-page-${lang}.png`, fullPage: true });
    }
  }, 120_000);

  it('in every language: first load within the budget, and no layout shift on load or on the first live update', async () => {
    for (const { code } of LANGUAGES) {
      const urls: string[] = [];
      const onRequest = (r: { url(): string }) => urls.push(r.url());
      page.on('request', onRequest);
      const poll = page.waitForResponse((r) => r.url().includes(`/pay/${open.id}/status?lang=${code}`));
      try {
        await page.goto(`${open.url}?lang=${code}`, { waitUntil: 'load' });
        await poll;
      } finally {
        page.off('request', onRequest);
      }
      // Counted as a first visit (the stylesheet and script come from the cache after the first page).
      let bytes = 0;
      for (const u of new Set(urls.filter((u) => u.startsWith(`${base}/`) && !u.includes('/status')))) {
        const r = await fetch(u, { headers: { cookie: `${LANG_COOKIE}=${code}` } });
        bytes += (await r.arrayBuffer()).byteLength;
        r.headers.forEach((v, k) => {
          bytes += k.length + v.length + 4;
        });
      }
      console.log(`payment page in ${code}: first load ${bytes} bytes`);
      expect(bytes, `${code}: first load`).toBeGreaterThan(1000);
      expect(bytes, `${code}: first load`).toBeLessThanOrEqual(PAGE_BUDGET);
      expect(await layoutShift(page), `${code}: cumulative layout shift`).toBe(0);
    }
  }, 120_000);

  it('Arabic reads right to left: the state card’s accent on the right, addresses and amounts left to right', async () => {
    const side = async (lang: string) => {
      await page.goto(`${open.url}?lang=${lang}`, { waitUntil: 'load' });
      return page.evaluate(() => {
        const card = getComputedStyle(document.querySelector('.state')!);
        const code = getComputedStyle(document.querySelector('[data-option]:not([hidden]) code')!);
        const amount = document.querySelector('[data-option]:not([hidden]) [data-remaining]')!.parentElement!;
        return {
          dir: document.documentElement.dir,
          right: card.borderRightWidth,
          left: card.borderLeftWidth,
          code: code.direction,
          amount: getComputedStyle(amount).direction,
          to: getComputedStyle(document.querySelector('.to')!).textAlign,
        };
      });
    };
    expect(await side('ar')).toEqual({
      dir: 'rtl',
      right: '6px',
      left: '1px',
      code: 'ltr',
      amount: 'ltr',
      to: 'start',
    });
    expect(await side('en')).toEqual({
      dir: 'ltr',
      right: '1px',
      left: '6px',
      code: 'ltr',
      amount: 'ltr',
      to: 'start',
    });
    // The title's text starts at the card's right edge, beside the accent.
    await page.goto(`${open.url}?lang=ar`);
    const gaps = await page.evaluate(() => {
      const card = document.querySelector('.state')!.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(document.querySelector('[data-state-title]')!);
      const text = range.getBoundingClientRect();
      return { right: card.right - text.right, left: text.left - card.left };
    });
    expect(gaps.right).toBeLessThan(gaps.left);
  });

  it('the picker switches language, with no layout shift, and the choice is remembered on the next visit', async () => {
    await page.goto(open.url, { waitUntil: 'load' });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.locator('nav.lang summary').click();
    await page.locator('nav.lang a[hreflang="ja"]').click();
    await page.waitForURL(/lang=ja/);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
    expect(await page.locator('[data-state-title]').textContent()).toBe('お支払いをお待ちしています');
    expect(await page.locator('nav.lang summary').textContent()).toContain('日本語');
    expect(await layoutShift(page), 'after switching').toBe(0);
    expect((await context.cookies()).find((c) => c.name === LANG_COOKIE)?.value).toBe('ja');
    // The next visit, without ?lang=: the remembered choice.
    await page.goto(open.url, { waitUntil: 'load' });
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
    expect(await page.locator('.to').textContent()).toBe('お支払い先');
    // Choosing a network keeps the page's language in the address bar.
    await page.goto(`${open.url}?lang=de`, { waitUntil: 'load' });
    await page.locator('[data-option-link="USDT-ETH"]').click();
    expect(new URL(page.url()).searchParams.get('lang')).toBe('de');
    expect(new URL(page.url()).searchParams.get('option')).toBe('USDT-ETH');
  });

  it('live updates stay in the page’s language: a partial payment, then Paid with the receipt link, in Japanese', async () => {
    const c = await createCheckout(fx, {
      amount: '100',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    // Accept-Language says German: the page's own ?lang= wins for its polls too.
    await page.setExtraHTTPHeaders({ 'accept-language': 'de' });
    try {
      await page.goto(`${c.url}?lang=ja`, { waitUntil: 'load' });
      await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '40' });
      await page.locator('[data-state-title]', { hasText: '一部お支払い済み' }).waitFor({ timeout: 5_000 });
      expect(await page.locator('[data-state-message]').textContent()).toContain('残りの 60 USDT');
      await expect
        .poll(() => page.locator('[data-payment-list] li').textContent())
        .toMatch(/^40 USDT（TRON）：トランザクション /);
      expect(await page.locator('[data-option]:not([hidden]) img.qr').getAttribute('alt')).toMatch(
        /^QR コード：60 USDT を T\w+ に送金$/,
      );
      await page.locator('[data-option]:not([hidden]) button[data-copy-amount]').click();
      await expect
        .poll(() => page.locator('[data-option]:not([hidden]) button[data-copy-amount]').textContent())
        .toMatch(/^コピー済み/);
      await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON' });
      await page.locator('[data-state-title]', { hasText: 'お支払い済み' }).waitFor({ timeout: 5_000 });
      const receipt = page.locator('[data-receipt-link]');
      await expect.poll(() => receipt.textContent()).toMatch(/^領収書 RCPT-\d{6} を表示$/);
      expect(await receipt.getAttribute('href')).toBe(`/pay/${c.id}/receipt`);
      expect(await page.locator('[data-footer]').textContent()).toBe(
        'このお支払いは完了しました。このページは閉じてかまいません。',
      );
    } finally {
      await page.setExtraHTTPHeaders({});
    }
  }, 30_000);

  it('a settled checkout: every language meets the public pages’ standards', async () => {
    const c = await createCheckout(fx, {
      amount: '12.5',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      successUrl: 'http://127.0.0.1:9/thanks',
    });
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON' });
    const facts = await checkEveryLanguage(page, c.url, 'settled payment page');
    expect(facts.find((f) => f.lang === 'ar')!.text).toContain('تم الدفع');
    expect(facts.find((f) => f.lang === 'ru')!.text).toContain('Оплачено');
  }, 120_000);
});
