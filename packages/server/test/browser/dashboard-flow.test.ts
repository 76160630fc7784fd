import { Decimal, parseExactJson } from '@hostpay/protocol';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminCaller, OPERATOR_TOKENS } from '../http-helpers/admin-fixture.js';
import { checkoutCall, configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { colourRefusal } from '../../src/features/self-service/brand.js';
import { TRON_ADDRESS } from '../payouts/world.js';
import { axeViolations } from './axe.js';
import { browserTestsEnabled, launchChromium } from './chromium.js';
import { pageGuard } from './guard.js';
import { stepOf, totpAt } from './totp.js';

/**
 * The merchant dashboard in Chromium against the real server on a loopback socket, as a shop
 * owner uses it: invited by an operator, the owner accepts the invitation, enrols an
 * authenticator (TOTP, from the QR code's secret), signs in with both factors, creates a
 * checkout and watches it get paid live, requests a payout and adds a webhook endpoint — every
 * step in the browser. Then every page: axe-core with no violation, keyboard use, 360 px without
 * sideways scrolling, no CSP violation; and a viewer, who sees no button the role cannot use.
 * HOSTPAY_SCREENSHOTS=docs writes docs/img/dashboard-*.png (1280×800).
 */
const OUT = fileURLToPath(new URL('../../../../test-output/dashboard/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../../docs/img/', import.meta.url));
const OWNER = 'owner@shop.example';
/** expect.poll with room for a loaded machine (the page and the server share two cores with the rest). */
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(fn, { timeout: 8_000, ...options });
const PASSWORD = 'correct horse battery staple';

describe.runIf(browserTestsEnabled())('the merchant dashboard in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let totpSecret = '';
  /** The last TOTP step used: a code is accepted once, so each sign-in takes a later step's. */
  let lastStep = 0;
  /** The checkout the owner created and saw paid. */
  let checkoutId = '';
  const guard = pageGuard();
  const admin = adminCaller(() => fx.app);
  const nextCode = () => {
    lastStep = Math.max(lastStep + 1, stepOf(Date.now()));
    return totpAt(totpSecret, lastStep);
  };
  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: `${OUT}${name}.png`, fullPage: false });
    if (process.env.HOSTPAY_SCREENSHOTS === 'docs') await page.screenshot({ path: `${DOCS}dashboard-${name}.png` });
  }
  async function noViolations(p: Page, screen: string): Promise<void> {
    const violations = await axeViolations(p);
    expect(
      violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`),
      screen,
    ).toEqual([]);
  }
  /** Invites `email` as `role` through the operator API and answers the link's path on this server. */
  async function invite(email: string, role: string): Promise<string> {
    const res = await admin('POST', `/merchants/${fx.demo.merchantId}/user-invitations`, { body: { email, role } });
    expect(res.statusCode, res.body).toBe(201);
    const link = (JSON.parse(res.body) as { result: { link: string } }).result.link;
    const url = new URL(link);
    expect(url.pathname.startsWith('/dashboard/')).toBe(true);
    return `${url.pathname}${url.search}${url.hash}`;
  }

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ adminTokens: OPERATOR_TOKENS, sandbox: true });
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    await configureChains(fx.services);
    // A new payout destination is active at once for this shop (the payouts tests cover the cooling-off).
    const cooling = await admin('PATCH', `/merchants/${fx.demo.merchantId}`, { body: { payoutCoolingOffHours: 0 } });
    expect(cooling.statusCode, cooling.body).toBe(200);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
    page = await context.newPage();
    // A step that cannot happen fails with what it waited for, well before the test's own timeout.
    page.setDefaultTimeout(8_000);
    guard.watch(page);
  }, 60_000);
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail') {
      console.log(
        `after "${test.task.name}": ${page.url()}\n${await page
          .locator('body')
          .innerText()
          .catch(() => '?')}`,
      );
    }
    await guard.check();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('serves the page with a CSP without unsafe-inline', async () => {
    const res = await page.goto(`${base}/dashboard`);
    const csp = (await res!.allHeaders())['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await page.getByLabel('Email').waitFor();
    await noViolations(page, 'sign-in');
    await shot('signin');
  });

  it('the invited owner accepts: password, TOTP enrolment with a QR code, ten recovery codes shown once', async () => {
    const path = await invite(OWNER, 'owner');
    await page.goto(`${base}${path}`);
    await poll(() => page.locator('main').textContent()).toContain(OWNER);
    await noViolations(page, 'accept invitation');
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByLabel('New password again').press('Enter');
    await page.getByRole('img', { name: 'QR code of the authenticator set-up' }).waitFor();
    totpSecret = (await page.getByTestId('totp-secret').textContent())!.trim();
    expect(totpSecret).toMatch(/^[A-Z2-7]{16,}=*$/);
    await noViolations(page, 'TOTP enrolment');
    await shot('enrol');
    await page.getByLabel('Authentication code').fill(nextCode());
    await page.getByLabel('Authentication code').press('Enter');
    const codes = page.getByTestId('recovery-codes').locator('code');
    await poll(() => codes.count()).toBe(10);
    expect(new Set(await codes.allTextContents()).size).toBe(10);
    await noViolations(page, 'recovery codes');
    await guard.check(); // nothing red at the most sensitive step: the account is made
    await page.getByRole('button', { name: /I have saved them/ }).click();
    await poll(() => page.getByTestId('user').textContent()).toBe(OWNER);
  });

  it('signs out and in again with two factors: password, then an authenticator code (Enter submits)', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').fill(OWNER);
    guard.expectError(/sign-in/); // the wrong password: its banner and its 401
    await page.getByLabel('Password').fill('not the password');
    await page.getByLabel('Password').press('Enter');
    await poll(() => page.getByRole('alert').count()).toBe(1);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.getByLabel('Authentication code').fill(nextCode());
    await page.getByLabel('Authentication code').press('Enter');
    await poll(() => page.getByTestId('user').textContent()).toBe(OWNER);
    const cookie = (await context.cookies()).find((c) => c.name === 'hp_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    await noViolations(page, 'home');
  });

  it('creates a checkout, shares its link and sees it paid live', async () => {
    await page.getByRole('link', { name: 'Checkouts' }).click();
    await page.getByRole('link', { name: 'New checkout' }).click();
    await page.getByLabel('Amount').fill('25');
    await page.getByLabel('Currency').fill('USDT');
    await page.getByLabel('Order id (optional)').fill('order-1001');
    await page.getByLabel('Order id (optional)').press('Enter');
    const share = page.getByTestId('share-link');
    await share.waitFor();
    const payUrl = (await share.textContent())!;
    expect(payUrl).toMatch(new RegExp(`^${base}/pay/chk_`));
    const id = new URL(payUrl).pathname.split('/').pop()!;
    checkoutId = id;
    await noViolations(page, 'new checkout');
    await page.getByRole('button', { name: 'Open the checkout' }).click();
    await poll(() => page.getByTestId('checkout-status').textContent()).toBe('open');
    await noViolations(page, 'checkout detail');
    const checkout = parseExactJson(
      (await checkoutCall(fx, fx.demo, 'GET', `/api/v1/cp/psp/hosted-pay/${id}`)).body,
    ) as { result: { paymentOptions: { asset: string; chain: string }[] } };
    const option = checkout.result.paymentOptions.find((o) => o.asset === 'USDT')!;
    // Paid while the page is open: the page is not reloaded, the event stream brings the change.
    const paid = await checkoutCall(fx, fx.demo, 'POST', `/api/v1/cp/psp/hosted-pay/${id}/simulate-payment`, {
      asset: option.asset,
      chain: option.chain,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    await poll(() => page.getByTestId('checkout-status').textContent(), { timeout: 15_000 }).toBe('settled');
    await poll(() => page.getByTestId('timeline').textContent()).toContain('settled');
  });

  it('requests a payout to a new destination: the confirmation traps focus and gives it back', async () => {
    await page.getByRole('link', { name: 'Payouts & refunds' }).click();
    await page.getByRole('textbox', { name: 'Chain', exact: true }).fill('TRON');
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill(TRON_ADDRESS);
    await page.getByLabel('Label (optional)').fill('cold wallet');
    await page.getByLabel('Label (optional)').press('Enter');
    await poll(() => page.getByRole('table', { name: 'Payout destinations' }).textContent()).toContain('active');
    const wallet = page.getByRole('combobox', { name: /^Wallet/ });
    const usdt = await wallet.locator('option', { hasText: 'USDT on TRON' }).getAttribute('value');
    await wallet.selectOption(usdt!);
    await page.getByLabel('Amount').fill('5');
    const submit = page.getByRole('button', { name: 'Request payout' });
    await submit.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Request this payout?' });
    await dialog.waitFor();
    // Tab cycles inside the dialog; Escape closes it and focus is back on the button.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await poll(() => page.locator('dialog').count()).toBe(0);
    await poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Request payout');
    await page.keyboard.press('Enter');
    await noViolations(page, 'payout confirmation');
    await dialog.getByRole('button', { name: 'Request payout' }).click();
    const payouts = page.getByRole('table', { name: 'Payouts and refunds, newest first' });
    await poll(() => payouts.textContent()).toContain('pending approval');
    await noViolations(page, 'payouts');
    await shot('payouts');
    // What can be paid out is the balance less what is frozen: in the form and on the home page.
    const summary = parseExactJson((await checkoutCall(fx, fx.demo, 'GET', '/api/v1/cp/summary')).body) as {
      result: { balances: { walletId: string; balance: string; freezeAmount: string }[] };
    };
    const mine = summary.result.balances.find((b) => b.walletId === usdt)!;
    expect(Number(mine.freezeAmount)).toBeGreaterThan(0);
    const available = new Decimal(mine.balance).minus(mine.freezeAmount).toFixed();
    await poll(() => wallet.locator('option', { hasText: 'USDT on TRON' }).textContent()).toContain(
      `(${available} available)`,
    );
    await page.getByRole('link', { name: 'Home' }).click();
    const row = page.getByRole('region', { name: 'Balance per wallet' }).getByRole('row', { name: /USDT\s+TRON/ });
    await poll(() => row.locator('td').nth(2).locator('[data-exact]').getAttribute('data-exact')).toBe(available);
  });

  it('adds a webhook endpoint: its signing secret shown once', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hooks/hostpay');
    await page.getByLabel('Endpoint URL').press('Enter');
    await poll(() => page.getByTestId('webhook-secret').textContent()).toMatch(/whsec_/);
    await expect
      .poll(() => page.getByRole('table', { name: 'Webhook endpoints' }).textContent())
      .toContain('127.0.0.1');
    await noViolations(page, 'webhooks');
    await shot('webhooks');
  });

  it("shows the checkout's money; refunds part to an address of the book, the rest by a link; then the form is gone", async () => {
    await page.goto(`${base}/dashboard/checkouts/${checkoutId}`);
    const text = (id: string) => page.getByTestId(id).textContent();
    const money = parseExactJson(
      (await checkoutCall(fx, fx.demo, 'GET', `/api/v1/cp/psp/hosted-pay/${checkoutId}/refunds`)).body,
    ) as { result: { received: string; fee: string; netCredited: string } };
    const { received, fee, netCredited } = money.result;
    expect(Number(fee)).toBeGreaterThan(0);
    await poll(() => text('money-received')).toContain(`${received} USDT`);
    expect(await text('money-fee')).toBe(`${fee} USDT`);
    expect(await text('money-net')).toBe(`${netCredited} USDT`);
    expect(await text('money-refunded')).toBe('0 USDT');
    expect(await text('money-refundable')).toBe(`${received} USDT`);
    await page.getByLabel('Refund amount').fill('1');
    await page.getByLabel('Address-book address (optional)').fill(TRON_ADDRESS);
    await page.getByLabel('Address-book address (optional)').press('Enter');
    await page
      .getByRole('dialog', { name: 'Refund the payer?' })
      .getByRole('button', { name: 'Request refund' })
      .click();
    await expect
      .poll(() => page.getByRole('status').or(page.locator('.ok')).first().textContent())
      .toBe('Refund requested.');
    await poll(() => text('refund-state')).toBe('partially refunded');
    expect(await page.getByTestId('checkout-status').textContent()).toBe('settled');
    await poll(() => text('money-refunded')).toBe('1 USDT');
    const rest = (await page.getByTestId('money-refundable').locator('[data-exact]').getAttribute('data-exact'))!;
    expect(Number(rest)).toBe(Number(received) - 1);
    await poll(() => page.getByTestId('timeline-refund').first().textContent()).toContain('1 USDT');
    const refunds = page.getByRole('region', { name: 'Refunds of this checkout, oldest first' });
    expect(await refunds.textContent()).toContain('pending approval');
    expect(await refunds.getByRole('link').first().getAttribute('href')).toMatch(/^\/dashboard\/payouts\/po_/);
    await shot('checkout');
    // The rest through a refund link (no address: the quick path).
    await page.getByLabel('Address-book address (optional)').fill('');
    await page.getByLabel('Refund amount').fill(rest);
    await page.getByLabel('Refund amount').press('Enter');
    await page
      .getByRole('dialog', { name: 'Refund the payer?' })
      .getByRole('button', { name: 'Request refund' })
      .click();
    await poll(() => page.locator('.secret code').textContent()).toMatch(/\/refund\//);
    // A link takes nothing until the payer submits: still partly refundable, so the form stays.
    expect(await text('refund-state')).toBe('partially refunded');
    const link = (await page.locator('.secret code').textContent())!;
    await page.goto(link);
    await page.fill('#address', TRON_ADDRESS);
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
    await page.waitForSelector('text=Refund requested');
    await page.goto(`${base}/dashboard/checkouts/${checkoutId}`);
    await poll(() => text('refund-state')).toBe('refunded');
    expect(await text('money-refundable')).toBe('0 USDT');
    expect(await page.getByLabel('Refund amount').count()).toBe(0);
    expect(await page.getByTestId('timeline-refund').count()).toBe(2);
    await noViolations(page, 'refunded checkout');
    await page.getByRole('link', { name: 'Payouts & refunds' }).click();
    await expect
      .poll(() => page.getByRole('table', { name: 'Payouts and refunds, newest first' }).textContent())
      .toContain('refund');
  });

  it('creates an API key (secret shown once), saves the payment page settings; both in the security log', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Label (optional)').fill('shop server');
    await page.getByLabel('Label (optional)').press('Enter');
    await poll(() => page.getByTestId('key-secret').textContent()).toMatch(/Secret\S+/);
    await poll(() => page.getByRole('table', { name: 'API keys' }).textContent()).toContain('shop server');
    // Each key names its creator and their role now (a key keeps its scopes when that role changes).
    await poll(() => page.getByRole('table', { name: 'API keys' }).textContent()).toMatch(/@\S+ \(now owner\)/);
    await shot('keys');
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Display name').fill('Corner Shop');
    // A logo picked from disk travels as a data: URL (no host; the page's CSP allows data: images).
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    await page.getByLabel('Logo image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'The logo payers will see' }).waitFor();
    // Receipts by mail are on by default (docs/mail.md); the merchant turns them off here.
    const receipts = page.getByLabel('Mail payers their receipt when a checkout with their email settles');
    expect(await receipts.isChecked()).toBe(true);
    await receipts.uncheck();
    // Colours and the payers' default language: a yellow under white text is refused, with the
    // server's reason and a passing shade under the field; the suggested shade then saves.
    const brand = page.getByLabel('Brand colour', { exact: true });
    await brand.fill('#FFD700');
    await page.getByLabel('Accent colour picker').fill('#0b57d0');
    expect(await page.getByLabel('Accent colour', { exact: true }).inputValue()).toBe('#0b57d0');
    await page.getByLabel('Default language for payers').selectOption({ label: 'Deutsch' });
    guard.expectError(/status of 400 \(Bad Request\) at \S+\/dashboard\/api\/settings$/);
    await page.getByLabel('Display name').press('Enter');
    const refusal = colourRefusal('brandColor', '#ffd700') as string;
    expect(refusal).toMatch(
      /^brandColor #ffd700 has contrast 1\.\d\d:1 with white text; WCAG AA needs 4\.5:1: try (#[0-9a-f]{6})$/,
    );
    await poll(() => page.locator('#brandColor-error').textContent()).toBe(refusal);
    expect(await brand.getAttribute('aria-invalid')).toBe('true');
    await brand.fill(refusal.slice(-7));
    await page.getByLabel('Display name').press('Enter');
    await poll(() => page.locator('.ok').first().textContent()).toBe('Settings saved.');
    expect(await page.locator('#brandColor-error').count()).toBe(0);
    await page.reload();
    await poll(() => page.getByLabel('Display name').inputValue()).toBe('Corner Shop');
    expect(await page.getByLabel('Logo URL').inputValue()).toBe(`data:image/png;base64,${png.toString('base64')}`);
    expect(await receipts.isChecked()).toBe(false);
    expect(await brand.inputValue()).toBe(refusal.slice(-7));
    expect(await page.getByLabel('Brand colour picker').inputValue()).toBe(refusal.slice(-7));
    expect(await page.getByLabel('Accent colour', { exact: true }).inputValue()).toBe('#0b57d0');
    expect(await page.getByLabel('Default language for payers').inputValue()).toBe('de');
    await page.getByRole('link', { name: 'Security log' }).click();
    const log = page.getByRole('table', { name: 'Security log, newest first' });
    await poll(() => log.textContent()).toContain('key.created');
    expect(await log.textContent()).toContain('settings.changed');
  });

  it('every page: axe, visible keyboard focus from the skip link, 360 px without sideways scrolling', async () => {
    const screens = [
      '/',
      '/checkouts',
      '/payouts',
      '/reports',
      '/keys',
      '/webhooks',
      '/events',
      '/settings',
      '/notifications',
      '/team',
      '/security',
    ];
    for (const s of screens) {
      await page.goto(`${base}/dashboard${s === '/' ? '' : s}`);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByRole('alert').allTextContents(), s).toEqual([]);
      if (s === '/') await shot('home');
      if (s === '/team') await shot('team');
      await noViolations(page, s);
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        return { text: el.textContent, outline: getComputedStyle(el).outlineStyle };
      });
      expect(focus, s).toEqual({ text: 'Skip to content', outline: 'solid' });
    }
    await page.setViewportSize({ width: 360, height: 740 });
    for (const s of [...screens, '/checkouts/new']) {
      await page.goto(`${base}/dashboard${s === '/' ? '' : s}`);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const wide = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        // What sticks out, to say what to fix: a table's cells too (at 360 px a table is a list
        // of cards, so status and actions are on screen, not past a sideways scroll).
        out: Array.from(document.querySelectorAll('body *'))
          .filter((e) => e.getBoundingClientRect().right > 361 && !e.closest('thead'))
          .slice(0, 5)
          .map((e) => `${e.tagName}.${e.className}:${Math.round(e.getBoundingClientRect().right)}`),
        scrolling: Array.from(document.querySelectorAll('.table-wrap'))
          .filter((t) => t.scrollWidth > t.clientWidth + 1)
          .map((t) => t.getAttribute('aria-label')),
      }));
      expect(wide.width, `${s} at 360 px: ${wide.out.join(', ')}`).toBeLessThanOrEqual(360);
      expect(wide.out, `${s} at 360 px`).toEqual([]);
      expect(wide.scrolling, `${s} at 360 px: tables that scroll sideways`).toEqual([]);
      if (s === '/checkouts/new') await shot('mobile');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 90_000);

  it('a viewer invited from the team page sees no write buttons, the server refuses the write anyway; a reset link sets a new password', async () => {
    await page.goto(`${base}/dashboard/team`);
    await page.getByLabel('Email').fill('viewer@shop.example');
    await page.getByLabel(/^Role/).first().selectOption('viewer');
    await page.getByLabel('Email').press('Enter');
    const link = (await page.getByTestId('team-link').locator('code').textContent())!;
    await noViolations(page, 'team');
    const viewer = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const vp = await viewer.newPage();
    guard.watch(vp);
    try {
      await vp.goto(`${base}${new URL(link).pathname}`);
      await vp.getByLabel('New password', { exact: true }).fill(PASSWORD);
      await vp.getByLabel('New password again').fill(PASSWORD);
      await vp.getByRole('button', { name: 'Set password' }).click();
      const secret = (await vp.getByTestId('totp-secret').textContent())!.trim();
      const enrolled = stepOf(Date.now());
      await vp.getByLabel('Authentication code').fill(totpAt(secret, enrolled));
      await vp.getByRole('button', { name: 'Confirm' }).click();
      await vp.getByRole('button', { name: /I have saved them/ }).click();
      await poll(() => vp.getByTestId('user').textContent()).toBe('viewer@shop.example');
      const nav = await vp.getByRole('navigation', { name: 'Dashboard' }).textContent();
      expect(nav).not.toContain('API keys');
      expect(nav).not.toContain('Webhooks');
      expect(nav).not.toContain('Security log');
      await vp.getByRole('link', { name: 'Payouts & refunds' }).click();
      await vp.getByRole('heading', { name: 'Payouts & refunds' }).waitFor();
      await vp.getByRole('table', { name: 'Payout destinations' }).waitFor();
      expect(await vp.getByRole('button', { name: /Request payout|Revoke|Cancel|Add destination/ }).count()).toBe(0);
      await noViolations(vp, 'payouts as viewer');
      // The page hid the button; the server refuses the call all the same (the session's own CSRF token).
      guard.expectError(/403 .*payout-destinations/);
      const refused = await vp.evaluate(async () => {
        const s = await (await fetch('/dashboard/api/session')).json();
        const res = await fetch('/api/v1/cp/payout-destinations', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': s.result.csrfToken },
          body: JSON.stringify({ chain: 'TRON', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }),
        });
        return { status: res.status, body: await res.json() };
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('SCOPE_MISSING');
      // The owner gives the viewer a password-reset link; the viewer sets a new password and signs in with it.
      await page.reload();
      await page.getByRole('button', { name: 'Reset link for viewer@shop.example' }).click();
      const reset = (await page.getByTestId('team-link').locator('code').textContent())!;
      await vp.goto(`${base}${new URL(reset).pathname}`);
      await poll(() => vp.locator('main').textContent()).toContain('viewer@shop.example');
      await noViolations(vp, 'password reset');
      await vp.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
      await vp.getByLabel('New password again').fill('a brand new passphrase');
      await vp.getByLabel('New password again').press('Enter');
      await vp.getByRole('button', { name: 'Sign in' }).click();
      await vp.getByLabel('Email').fill('viewer@shop.example');
      await vp.getByLabel('Password').fill('a brand new passphrase');
      await vp.getByLabel('Password').press('Enter');
      await vp.getByLabel('Authentication code').fill(totpAt(secret, Math.max(enrolled + 1, stepOf(Date.now()))));
      await vp.getByLabel('Authentication code').press('Enter');
      await poll(() => vp.getByTestId('user').textContent()).toBe('viewer@shop.example');
    } finally {
      await guard.check();
      await viewer.close();
    }
  });
});
