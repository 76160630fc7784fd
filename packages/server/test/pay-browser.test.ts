import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, serious } from './browser/axe.js';
import { browserTestsEnabled, launchChromium } from './browser/chromium.js';
import { pageGuard } from './browser/guard.js';
import { checkoutCall, configureChains, resultOf } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { cancel, createCheckout, simulate, type CreatedCheckout } from './pay/helpers.js';

/**
 * The payment page in a real browser (system Chromium through playwright-core) against the real
 * server on a loopback socket: what a payer on a phone sees, reads, scans and watches change.
 * One browser for the file, one page per viewport, reused across the tests (2-core machines).
 * Screenshots of every state go to test-output/pay-page/; HOSTPAY_SCREENSHOTS=docs also writes
 * the main ones to docs/img/ (how the committed ones were made).
 */
const OUT = fileURLToPath(new URL('../../../test-output/pay-page/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../docs/img/', import.meta.url));
const MOBILE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const EXPLORER = 'https://tronscan.org/#/transaction/';

describe.runIf(browserTestsEnabled())('the payment page in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let mobile: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  const guard = pageGuard();

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
    // Bitcoin too, so the page shows a BIP-21 code: the demo has no BTC rates.
    for (const base of ['EUR', 'USDT'])
      await fx.services.admin.setRate(
        { base, quote: 'BTC', rate: base === 'EUR' ? '0.0000115' : '0.0000105' },
        { operator: 'test' },
      );
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    browser = await launchChromium();
    mobile = await browser.newContext({
      viewport: MOBILE,
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      colorScheme: 'light',
    });
    page = await mobile.newPage();
    page.on('request', (r) => requests.push(r.url()));
    guard.watch(page);
  }, 60_000);
  afterEach(() => guard.check());
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  async function shot(name: string, target: Page = page): Promise<void> {
    await target.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
    if (process.env.HOSTPAY_SCREENSHOTS === 'docs' && ['open', 'underpaid', 'settled'].includes(name))
      await target.screenshot({ path: `${DOCS}payment-page-${name}.png`, fullPage: true });
  }
  const api = async (id: string) =>
    resultOf<CreatedCheckout>(await checkoutCall(fx, fx.demo, 'GET', `/api/v1/cp/psp/hosted-pay/${id}`));
  const visible = (sel: string) => page.locator(`[data-option]:not([hidden]) ${sel}`);

  let c: CreatedCheckout;

  it('opens from the checkout url: amount, address and QR of the chosen network match the API, in ≤ 60 KB', async () => {
    c = await createCheckout(fx, {
      amount: '25.5',
      currency: 'EUR',
      description: 'Two books: "The Trial" & <Amerika>',
      paymentOptions: [
        { asset: 'USDT', chain: 'TRON' },
        { asset: 'USDT', chain: 'ETH' },
        { asset: 'BTC', chain: 'BTC' },
      ],
      successUrl: 'http://127.0.0.1:9/thanks',
      cancelUrl: 'http://127.0.0.1:9/cart',
    });
    expect(c.url).toBe(`${base}/pay/${c.id}`);
    const sizes: Promise<number>[] = [];
    page.on('requestfinished', (r) => sizes.push(r.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));
    await page.goto(c.url, { waitUntil: 'networkidle' });
    page.removeAllListeners('requestfinished');
    const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    console.log(`payment page first load: ${sizes.length} requests, ${bytes} bytes`);
    expect(bytes).toBeLessThanOrEqual(60 * 1024);

    await expect.poll(() => page.locator('h1').textContent()).toBe('Demo Shop');
    expect(await page.locator('.desc').textContent()).toBe('Two books: "The Trial" & <Amerika>');
    // 25.5 EUR as a payer reads euros: with the cents (English: Chromium's Accept-Language).
    expect(await page.locator('[data-amount]').textContent()).toBe('€25.50');
    expect(await page.locator('[data-state-title]').textContent()).toBe('Waiting for your payment');
    expect(await page.locator('[data-expires]').textContent()).toMatch(/^1[45]:\d\d$/);

    await page.getByRole('link', { name: 'USDT on ERC20 (ETH)' }).click();
    const eth = (await api(c.id)).paymentOptions.find((o) => o.chain === 'ETH')!;
    expect(await visible('[data-remaining]').textContent()).toBe(eth.amountDue);
    expect(await visible('code').textContent()).toBe(eth.address);
    expect(page.url()).toBe(`${c.url}?option=USDT-ETH`);
    const qr = visible('img.qr');
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await visible('[data-uri]').getAttribute('href')).toBe(
      `ethereum:${eth.tokenContract}@1/transfer?address=${eth.address}&uint256=${eth.amountDue.replace('.', '').replace(/^0+/, '')}${'0'.repeat(6 - (eth.amountDue.split('.')[1] ?? '').length)}`,
    );

    await page.getByRole('link', { name: 'BTC on Bitcoin (BTC)' }).click();
    const btc = (await api(c.id)).paymentOptions.find((o) => o.chain === 'BTC')!;
    expect(await visible('[data-uri]').getAttribute('href')).toBe(`bitcoin:${btc.address}?amount=${btc.amountDue}`);
    await page.getByRole('link', { name: 'USDT on TRC20 (TRON)' }).click();
    await shot('open');
  }, 40_000);

  it('at 360×740 the amount, the address and its copy button are on the first screen; at 1280×800 the QR code too', async () => {
    const onFirstScreen = async (p: Page, viewport: { width: number; height: number }, selectors: string[]) => {
      expect(await p.evaluate(() => window.scrollY)).toBe(0);
      for (const selector of selectors) {
        const box = await p.locator(`[data-option]:not([hidden]) ${selector}`).boundingBox();
        expect(box, selector).not.toBeNull();
        console.log(
          `${viewport.width}×${viewport.height} ${selector}: bottom at ${Math.round(box!.y + box!.height)} px`,
        );
        expect(box!.y, selector).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height, selector).toBeLessThanOrEqual(viewport.height);
        expect(box!.x + box!.width, selector).toBeLessThanOrEqual(viewport.width);
      }
    };
    // The default option (nothing chosen, nothing paid: the first), sandbox banner included.
    await page.goto(c.url);
    const essentials = [
      '[data-remaining]',
      'code',
      'button[data-copy-amount]',
      'button[data-copy]:not([data-copy-amount])',
    ];
    await onFirstScreen(page, MOBILE, essentials);
    const desktop = guard.watch(await browser.newPage({ viewport: DESKTOP }));
    try {
      await desktop.goto(c.url);
      await onFirstScreen(desktop, DESKTOP, [...essentials, 'img.qr']);
    } finally {
      await desktop.close();
    }
  });

  it('keyboard: Tab reaches the network choice and the copy buttons; Enter switches networks', async () => {
    await page.goto(c.url);
    const focused: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(focused).toEqual(
      expect.arrayContaining(['Cancel and return to Demo Shop', 'USDT on ERC20 (ETH)', 'Copy amount', 'Copy address']),
    );
    // The default option is TRON, which has no payment URI scheme: no wallet link to reach.
    expect(focused).not.toContain('Open in a wallet app');
    await page.getByRole('link', { name: 'USDT on ERC20 (ETH)' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-option="USDT-ETH"]').isVisible()).toBe(true);
  });

  it('axe-core: no serious or critical violations, light and dark, mobile', async () => {
    await page.goto(c.url);
    const light = await axeViolations(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('open-dark');
    const dark = await axeViolations(page);
    await page.emulateMedia({ colorScheme: 'light' });
    console.log(
      `axe: light ${light.length} violations (${light.map((v) => `${v.id}:${v.impact}`).join(', ') || 'none'}), dark ${dark.length}`,
    );
    expect(serious(light)).toEqual([]);
    expect(serious(dark)).toEqual([]);
  });

  it('a partial payment shows the remainder within 2 s, without a reload; completing it shows Paid and the receipt link', async () => {
    await page.goto(c.url);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const t0 = Date.now();
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '10' });
    await page.locator('[data-state-title]', { hasText: 'Partly paid' }).waitFor({ timeout: 2_000 });
    console.log(`partial payment shown after ${Date.now() - t0} ms`);
    const tron = (await api(c.id)).paymentOptions.find((o) => o.chain === 'TRON')!;
    await expect.poll(() => visible('[data-remaining]').textContent(), { timeout: 2_000 }).toBe(tron.remaining);
    expect(await page.locator('[data-state-message]').textContent()).toContain(
      `Send the remaining ${tron.remaining} USDT`,
    );
    expect(await visible('img.qr').getAttribute('src')).toContain(`v=${tron.remaining}`);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await shot('underpaid');

    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON' });
    await page.locator('[data-state-title]', { hasText: 'Paid' }).waitFor({ timeout: 2_000 });
    expect(await page.getByRole('link', { name: 'Return to Demo Shop' }).getAttribute('href')).toBe(
      'http://127.0.0.1:9/thanks',
    );
    expect(await page.locator('[data-option]').first().isVisible()).toBe(false);
    // The receipt link, shown by the script from /status: the page was never reloaded (marker).
    const receipt = page.getByRole('link', { name: /^View your receipt RCPT-\d{6}$/ });
    await receipt.waitFor({ timeout: 2_000 });
    const number = (await api(c.id)) as CreatedCheckout & { receiptNumber: string };
    expect(await receipt.textContent()).toBe(`View your receipt ${number.receiptNumber}`);
    expect(await receipt.getAttribute('href')).toBe(`/pay/${c.id}/receipt`);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(serious(await axeViolations(page))).toEqual([]);
    await shot('settled');
    await receipt.click();
    await page.waitForURL(`${base}/pay/${c.id}/receipt`);
    expect(await page.locator('[data-receipt-number]').textContent()).toBe(number.receiptNumber);
  });

  it('an open page shows the expiry without a reload', async () => {
    const e = await createCheckout(fx, {
      amount: '5',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    await page.goto(e.url);
    fx.clock.offsetMs += 16 * 60_000;
    try {
      await fx.services.checkouts.expireDue();
      await page.locator('[data-state-title]', { hasText: 'expired' }).waitFor({ timeout: 2_000 });
    } finally {
      fx.clock.offsetMs -= 16 * 60_000;
    }
    expect(await page.locator('[data-state-message]').textContent()).toContain('Do not send anything');
    await shot('expired');
  });

  it('without JavaScript: amount, address, QR and the state on reload; the 404 page', async () => {
    const nojs = await browser.newContext({ viewport: MOBILE, javaScriptEnabled: false });
    try {
      const p = guard.watch(await nojs.newPage());
      const n = await createCheckout(fx, {
        amount: '7',
        currency: 'USDT',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      });
      // (No page.evaluate here: with JavaScript off it never returns. The QR image is seen arriving.)
      const qr = p.waitForResponse((r) => r.url().includes('/qr.svg'));
      await p.goto(n.url);
      expect([(await qr).status(), (await qr).headers()['content-type']]).toEqual([200, 'image/svg+xml']);
      expect(await p.locator('[data-option]:not([hidden]) [data-remaining]').textContent()).toBe(
        n.paymentOptions[0]!.amountDue,
      );
      expect(await p.locator('[data-option]:not([hidden]) code').textContent()).toBe(n.paymentOptions[0]!.address);
      await simulate(fx, n.id, { asset: 'USDT', chain: 'TRON', amount: '2' });
      await p.reload();
      expect(await p.locator('[data-state-title]').textContent()).toBe('Partly paid');
      expect(await p.locator('[data-option]:not([hidden]) [data-remaining]').textContent()).toBe('5');
      await shot('underpaid-nojs', p);
      guard.expectError(/404 .*\/pay\/chk_nosuchcheckout/); // the 404 page, on purpose
      const missing = await p.goto(`${base}/pay/chk_nosuchcheckout`);
      expect(missing?.status()).toBe(404);
      expect(await p.locator('h1').textContent()).toBe('Payment page not found');
      await shot('not-found', p);
    } finally {
      await nojs.close();
    }
    await page.goto(`${base}/pay/chk_nosuchcheckout`);
    expect(serious(await axeViolations(page))).toEqual([]);
  });

  it("every link on every state's page is the page itself, the merchant's return URL, a payment URI of a known scheme or the operator's explorer", async () => {
    const successUrl = 'http://127.0.0.1:9/thanks';
    const cancelUrl = 'http://127.0.0.1:9/cart';
    await fx.services.admin.updateChain('TRON', { explorerTxUrl: `${EXPLORER}{tx}` }, { operator: 'test' });
    const make = () =>
      createCheckout(fx, {
        amount: '5',
        currency: 'USDT',
        paymentOptions: [
          { asset: 'USDT', chain: 'TRON' },
          { asset: 'USDT', chain: 'ETH' },
          { asset: 'BTC', chain: 'BTC' },
        ],
        successUrl,
        cancelUrl,
      });
    const seen = new Map<string, string[]>();
    const check = async (state: string, k: CreatedCheckout) => {
      await page.goto(k.url);
      expect(await page.locator('body').getAttribute('data-status'), state).toBe(state);
      const hrefs = await page.evaluate(() =>
        Array.from(document.querySelectorAll('a[href]'), (a) => (a as HTMLAnchorElement).href),
      );
      for (const href of hrefs) {
        if (href.startsWith(`${base}/`)) {
          // Same origin: only this page (another network, an anchor) or, once settled, its receipt; and it answers.
          const own = new URL(k.url).pathname;
          expect(new URL(href).pathname, `${state}: ${href}`).toBe(
            state === 'settled' && href.endsWith('/receipt') ? `${own}/receipt` : own,
          );
          expect((await page.request.get(href.split('#')[0]!)).status(), `${state}: ${href}`).toBe(200);
        } else
          expect(
            href === successUrl ||
              href === cancelUrl ||
              /^(bitcoin|ethereum):[^/]/.test(href) ||
              (href.startsWith(EXPLORER) && href.length > EXPLORER.length),
            `${state}: ${href}`,
          ).toBe(true);
      }
      seen.set(state, hrefs);
    };
    try {
      await check('open', await make());
      const under = await make();
      await simulate(fx, under.id, { asset: 'USDT', chain: 'TRON', amount: '1' });
      await check('underpaid', under);
      const processing = await make();
      await simulate(fx, processing.id, { asset: 'USDT', chain: 'TRON', confirmations: 0 });
      await check('processing', processing);
      const settled = await make();
      await simulate(fx, settled.id, { asset: 'USDT', chain: 'TRON' });
      await check('settled', settled);
      await shot('settled-payments');
      const canceled = await make();
      await cancel(fx, canceled.id);
      await check('canceled', canceled);
      const late = await make();
      await cancel(fx, late.id);
      await simulate(fx, late.id, { asset: 'USDT', chain: 'TRON' });
      await check('needs_review', late);
      await fx.services.checkouts.rejectReview(late.id, { operator: 'test' });
      await check('invalid', late);
      const expiring = await make();
      fx.clock.offsetMs += 16 * 60_000;
      try {
        await fx.services.checkouts.expireDue();
        await check('expired', expiring);
      } finally {
        fx.clock.offsetMs -= 16 * 60_000;
      }
      // What the test looked at: the wallet links of BTC and ETH, none for TRON; the explorer on Paid.
      expect(seen.get('open')!.filter((h) => /^(bitcoin|ethereum):/.test(h))).toHaveLength(2);
      expect(seen.get('settled')!.some((h) => h.startsWith(EXPLORER))).toBe(true);
      expect(seen.get('settled')).toContain(successUrl);
    } finally {
      await fx.services.admin.updateChain('TRON', { explorerTxUrl: null }, { operator: 'test' });
    }
  });

  it('desktop width, and nothing left the server: no third-party request, no CSP violation', async () => {
    const desktop = guard.watch(await browser.newPage({ viewport: DESKTOP }));
    try {
      await desktop.goto(c.url);
      await shot('settled-desktop', desktop);
    } finally {
      await desktop.close();
    }
    expect(requests.filter((u) => !u.startsWith(base) && !u.startsWith('data:'))).toEqual([]);
  });
});
