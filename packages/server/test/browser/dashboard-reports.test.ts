import { Decimal, parseExactJson, REPORT_COLUMNS, REPORT_KINDS, type ReportKind } from '@hostpay/protocol';
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminCaller, OPERATOR_TOKENS } from '../http-helpers/admin-fixture.js';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { dashboardSession } from '../http-helpers/dashboard-session.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { TRON_ADDRESS } from '../payouts/world.js';
import { parseCsv } from '../reports/env.js';
import { axeViolations } from './axe.js';
import { launchChromium } from './chromium.js';
import { pageGuard } from './guard.js';

/**
 * The dashboard's Reports page and top-bar search in Chromium against the real server on a
 * loopback socket: an owner signed in (a session made through the sign-in routes, its cookie
 * handed to the browser) downloads every kind of report, in CSV and NDJSON, through the page's
 * download link; each file is parsed and checked against what the API says of the same
 * checkouts and payout, and against the API's own file. The month's statement on screen carries
 * the API's exact figures; the search finds a checkout by id and by order id, and a payout, and
 * its hits lead to their pages, by keyboard too. A viewer downloads as well. Every screen: axe,
 * and 360 px without sideways scrolling. HOSTPAY_SCREENSHOTS=docs writes docs/img/dashboard-reports.png.
 */
const OUT = fileURLToPath(new URL('../../../../test-output/dashboard/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../../docs/img/', import.meta.url));
const DAY = 86_400_000;
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(fn, { timeout: 8_000, ...options });

interface Money {
  received: string;
  fee: string;
  netCredited: string;
}
interface Balance {
  walletId: string;
  balance: string;
  freezeAmount: string;
}
interface Made {
  id: string;
  orderId: string;
  txHash: string;
  money: Money;
}

describe('the dashboard’s Reports page and search in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let walletId = '';
  /** What the wallet had frozen before the payout (the demo's seed freezes some). */
  let frozenBefore = '';
  let payout: { id: string; amount: string; total: string; status: string };
  const made: Made[] = [];
  const guard = pageGuard();
  const admin = adminCaller(() => fx.app);
  const api = <T>(url: string) => checkoutCall(fx, fx.demo, 'GET', url).then((r) => resultOf<T>(r));

  async function noViolations(p: Page, screen: string): Promise<void> {
    const violations = await axeViolations(p);
    expect(
      violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`),
      screen,
    ).toEqual([]);
  }
  const frozenOf = async (id: string) =>
    (await api<{ balances: Balance[] }>('/api/v1/cp/summary')).balances.find((b) => b.walletId === id)!;
  /** A browser context signed in as a new user of the demo merchant with `role`. */
  async function signedIn(role: 'owner' | 'viewer'): Promise<BrowserContext> {
    const session = await dashboardSession(fx, fx.demo.merchantId, role);
    const [name, value] = session.cookie.split('=') as [string, string];
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    await ctx.addCookies([
      { name, value, url: base, httpOnly: true, sameSite: 'Strict' },
      // The readable hint the server sets beside a session: without it the page shows the sign-in form.
      { name: `${name}_hint`, value: '1', url: base, sameSite: 'Strict' },
    ]);
    return ctx;
  }
  /** Downloads what the page's Download link points at, as the browser saves it. */
  async function download(p: Page, kind: ReportKind, format: 'csv' | 'ndjson') {
    await p.getByLabel('Report').selectOption(kind);
    await p.getByLabel('Format').selectOption(format);
    const link = p.getByTestId('download');
    const href = (await link.getAttribute('href'))!;
    expect(href).toContain(`/reports/${kind}?`);
    const [file] = await Promise.all([p.waitForEvent('download'), link.click()]);
    const path = await file.path();
    expect(await file.failure()).toBeNull();
    return { href, name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
  }
  /** A report as records keyed by column, every value as CSV writes it. */
  function records(kind: ReportKind, format: 'csv' | 'ndjson', text: string): Record<string, string>[] {
    const columns: readonly string[] = REPORT_COLUMNS[kind];
    if (format === 'csv') {
      const [header, ...rows] = parseCsv(text);
      expect(header).toEqual([...columns]);
      return rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]!])));
    }
    expect(text.endsWith('\n')).toBe(true);
    return text
      .trimEnd()
      .split('\n')
      .map((line) => {
        const row = parseExactJson(line) as Record<string, string | boolean | null>;
        expect(Object.keys(row)).toEqual([...columns]);
        return Object.fromEntries(columns.map((c) => [c, row[c] === null ? '' : String(row[c])]));
      });
  }

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ adminTokens: OPERATOR_TOKENS, sandbox: true });
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    await configureChains(fx.services);
    // Two checkouts paid in full through the sandbox (each request its own body: signatures are single-use).
    for (const [amount, orderId] of [
      ['25', 'rep-order-1001'],
      ['40.5', 'rep-order-1002'],
    ] as const) {
      const created = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/psp/hosted-pay', {
        amount,
        currency: 'USDT',
        orderId,
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = resultOf<{ id: string }>(created);
      const paid = await checkoutCall(fx, fx.demo, 'POST', `/api/v1/cp/psp/hosted-pay/${id}/simulate-payment`, {
        asset: 'USDT',
        chain: 'TRON',
      });
      expect(resultOf<{ status: string }>(paid).status, paid.body).toBe('settled');
      const txHash = resultOf<{ payments: { txHash: string }[] }>(paid).payments[0]!.txHash;
      made.push({ id, orderId, txHash, money: await api<Money>(`/api/v1/cp/psp/hosted-pay/${id}/refunds`) });
    }
    // A payout of 1 USDT from the wallet they credited, to an address of the book made active at once.
    const wallets = await api<{ id: string; asset: string; chain: { symbol: string } }[]>('/api/v1/cp/wallets');
    walletId = wallets.find((w) => w.asset === 'USDT' && w.chain.symbol === 'TRON')!.id;
    const destination = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/payout-destinations', {
      chain: 'TRON',
      address: TRON_ADDRESS,
    });
    const destinationId = resultOf<{ id: string }>(destination).id;
    const activated = await admin('POST', `/payout-destinations/${destinationId}/activate`, { body: {} });
    expect(activated.statusCode, activated.body).toBe(200);
    frozenBefore = (await frozenOf(walletId)).freezeAmount;
    const requested = await checkoutCall(fx, fx.demo, 'POST', '/api/v1/cp/payouts', {
      walletId,
      destinationId,
      amount: '1',
    });
    expect(requested.statusCode, requested.body).toBe(201);
    payout = resultOf(requested);
    browser = await launchChromium();
    context = await signedIn('owner');
    page = guard.watch(await context.newPage());
    page.setDefaultTimeout(8_000);
  }, 90_000);
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      console.log(
        `after "${test.task.name}": ${page.url()}\n${await page
          .locator('body')
          .innerText()
          .catch(() => '?')}`,
      );
    await guard.check();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('the Reports page is in the menu; its presets choose this and last month (UTC)', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/reports');
    const now = new Date();
    const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
    await page.getByRole('button', { name: 'Last month' }).click();
    expect(await page.getByLabel('First day').inputValue()).toBe(
      ymd(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)),
    );
    expect(await page.getByLabel('Last day').inputValue()).toBe(ymd(first - DAY));
    await page.getByRole('button', { name: 'This month' }).click();
    expect(await page.getByLabel('First day').inputValue()).toBe(ymd(first));
    expect(await page.getByLabel('Last day').inputValue()).toBe(
      ymd(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - DAY),
    );
    // A range the server would refuse is said on the page, and there is nothing to download.
    await page.getByLabel('First day').fill(ymd(first + 40 * DAY));
    await page.getByLabel('Last day').fill(ymd(first));
    await poll(() => page.getByTestId('range-problem').textContent()).toBe('The last day is before the first.');
    expect(await page.getByTestId('download').count()).toBe(0);
    await page.getByLabel('First day').fill(ymd(first - 400 * DAY));
    await poll(() => page.getByTestId('range-problem').textContent()).toBe('A report covers at most 366 days.');
    await noViolations(page, 'reports');
  }, 60_000);

  it('downloads every kind as CSV and NDJSON; each file is the API’s and holds the checkouts and the payout', async () => {
    // Yesterday to tomorrow, whatever the day of the month the test runs on.
    const today = Date.now();
    await page.getByLabel('First day').fill(new Date(today - DAY).toISOString().slice(0, 10));
    await page.getByLabel('Last day').fill(new Date(today + DAY).toISOString().slice(0, 10));
    const byKind = new Map<ReportKind, Record<string, string>[]>();
    for (const kind of REPORT_KINDS) {
      for (const format of ['csv', 'ndjson'] as const) {
        const file = await download(page, kind, format);
        expect(file.name).toMatch(new RegExp(`^hostpay-${kind}-\\d{8}T\\d{6}Z-\\d{8}T\\d{6}Z\\.${format}$`));
        // The same request signed with an API key answers the same bytes.
        const fromApi = await checkoutCall(fx, fx.demo, 'GET', file.href);
        expect(fromApi.statusCode, fromApi.body).toBe(200);
        expect(file.text).toBe(fromApi.body);
        const rows = records(kind, format, file.text);
        if (format === 'csv') byKind.set(kind, rows);
        // NDJSON and CSV carry the same rows, value for value.
        else expect(rows).toEqual(byKind.get(kind));
      }
    }
    const rows = (kind: ReportKind) => byKind.get(kind)!;
    for (const c of made) {
      const checkout = rows('checkouts').find((r) => r.id === c.id);
      expect(checkout).toMatchObject({
        status: 'settled',
        orderId: c.orderId,
        currency: 'USDT',
        asset: 'USDT',
        chain: 'TRON',
        received: c.money.received,
        fee: c.money.fee,
        net: c.money.netCredited,
      });
      const payments = rows('payments').filter((r) => r.checkoutId === c.id);
      expect(payments.map((p) => [p.txHash, p.amount, p.credited, p.retracted])).toEqual([
        [c.txHash, c.money.received, 'true', 'false'],
      ]);
      const credits = rows('ledger').filter((r) => r.checkoutId === c.id);
      expect(credits.map((r) => [r.kind, r.amount, r.walletId])).toEqual([['credit', c.money.netCredited, walletId]]);
      expect(rows('fees').find((r) => r.checkoutId === c.id)).toMatchObject({ asset: 'USDT', feeInAsset: c.money.fee });
    }
    expect(rows('payouts').find((r) => r.id === payout.id)).toMatchObject({
      status: payout.status,
      walletId,
      amount: payout.amount,
      total: payout.total,
      destination: TRON_ADDRESS,
    });
    expect(
      rows('ledger')
        .filter((r) => r.payoutId === payout.id)
        .map((r) => [r.kind, r.amount]),
    ).toEqual([['freeze', payout.total]]);
  }, 90_000);

  it('shows the month’s statement per wallet with the API’s exact figures', async () => {
    const month = new Date().toISOString().slice(0, 7);
    await page.getByLabel('Month').fill(month);
    const table = page.getByRole('region', { name: `Statement of ${month}, per wallet` });
    const row = table.getByRole('row').filter({ hasText: walletId });
    await row.waitFor();
    const shown = async (label: string) =>
      (await row.locator(`td[data-label="${label}"] [data-exact]`).getAttribute('data-exact'))!;
    const statement = await api<{ wallets: Record<string, string>[] }>(`/api/v1/cp/reports/statement?month=${month}`);
    const line = statement.wallets.find((w) => w.walletId === walletId)!;
    for (const [label, field] of [
      ['Opening', 'opening'],
      ['Credits', 'credits'],
      ['Debits', 'debits'],
      ['Fees', 'fees'],
      ['Closing', 'closing'],
      ['Frozen at close', 'frozenAtClose'],
    ] as const)
      expect(await shown(label), label).toBe(line[field]);
    // The closing figure is the wallet's balance now, and what is frozen now (the payout's total among it).
    const balance = await frozenOf(walletId);
    expect(await shown('Closing')).toBe(balance.balance);
    expect(await shown('Frozen at close')).toBe(balance.freezeAmount);
    expect(new Decimal(frozenBefore).plus(payout.total).toFixed()).toBe(new Decimal(balance.freezeAmount).toFixed());
    const sum = new Decimal(await shown('Opening')).plus(await shown('Credits')).minus(await shown('Debits'));
    expect(sum.toFixed()).toBe(new Decimal(await shown('Closing')).toFixed());
    const fees = made.reduce((s, c) => s.plus(c.money.fee), new Decimal(0));
    expect(new Decimal(await shown('Fees')).gte(fees)).toBe(true);
    await noViolations(page, 'statement');
    await page.getByLabel('Month').blur();
    await page.screenshot({ path: `${OUT}reports.png` });
    if (process.env.HOSTPAY_SCREENSHOTS === 'docs') await page.screenshot({ path: `${DOCS}dashboard-reports.png` });
  }, 60_000);

  it('the top bar finds a checkout by id (keyboard) and by order id, and a payout; each hit opens its page', async () => {
    const box = page.getByRole('searchbox', { name: 'Search' });
    const hits = page.getByRole('region', { name: 'Search results' });
    const [first, second] = made as [Made, Made];
    await box.fill(first.id);
    await box.press('Enter');
    await poll(() => hits.getByRole('link').allTextContents()).toEqual([`Checkout ${first.id}`]);
    expect(await page.getByTestId('search-status').textContent()).toBe(`1 hit for “${first.id}”`);
    await noViolations(page, 'search hits');
    // Down from the box to the hit, Enter follows it; the list closes.
    await box.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(`Checkout ${first.id}`);
    await page.keyboard.press('Enter');
    await poll(() => new URL(page.url()).pathname).toBe(`/dashboard/checkouts/${first.id}`);
    await poll(() => page.getByTestId('checkout-status').textContent()).toBe('settled');
    expect(await hits.count()).toBe(0);

    await box.fill(second.orderId);
    await box.press('Enter');
    const hit = hits.getByRole('link', { name: `Checkout ${second.id}` });
    await hit.waitFor();
    expect(await hits.textContent()).toContain(second.orderId);
    await hit.click();
    await poll(() => page.getByTestId('checkout-facts').textContent()).toContain(second.id);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(second.orderId);

    await box.fill(payout.id);
    await box.press('Enter');
    await hits.getByRole('link', { name: `Payout ${payout.id}` }).click();
    await poll(() => page.getByTestId('payout-status').textContent()).toBe(payout.status);
    expect(await page.getByTestId('payout-facts').textContent()).toContain(TRON_ADDRESS);
    await noViolations(page, 'payout detail');

    // Spaces do not make a query long enough: the page says so instead of asking the server.
    guard.expectError(/Type 3 to 200 characters/);
    await box.fill('  ab  ');
    await box.press('Enter');
    await poll(() => hits.getByRole('alert').textContent()).toContain('Type 3 to 200 characters');
    // Nothing found says so; Escape closes the list and gives the box the focus back.
    await box.fill('no-such-order-at-all');
    await box.press('Enter');
    await poll(() => hits.textContent()).toContain('Nothing for “no-such-order-at-all”');
    await hits.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Escape');
    await poll(() => hits.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
  }, 60_000);

  it('at 360 px: the Reports page and the search with its hits fit the screen', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    const overflow = () =>
      page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        out: Array.from(document.querySelectorAll('body *'))
          .filter((e) => e.getBoundingClientRect().right > 361 && !e.closest('thead'))
          .slice(0, 5)
          .map((e) => `${e.tagName}.${e.className}:${Math.round(e.getBoundingClientRect().right)}`),
      }));
    try {
      await page.goto(`${base}/dashboard/reports`);
      await page.getByRole('region', { name: /^Statement of/ }).waitFor();
      expect(await overflow()).toEqual({ width: 360, out: [] });
      const box = page.getByRole('searchbox', { name: 'Search' });
      await box.fill(made[0]!.orderId);
      await box.press('Enter');
      const hit = page.getByRole('region', { name: 'Search results' }).getByRole('link');
      await hit.waitFor();
      expect(await overflow()).toEqual({ width: 360, out: [] });
      await noViolations(page, 'search at 360 px');
      await hit.click();
      await poll(() => page.getByTestId('checkout-status').textContent()).toBe('settled');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 60_000);

  it('a viewer sees Reports and downloads a report, with the same rows', async () => {
    const viewer = await signedIn('viewer');
    try {
      const vp = guard.watch(await viewer.newPage());
      await vp.goto(`${base}/dashboard/reports`);
      await vp.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      expect(await vp.getByRole('navigation', { name: 'Dashboard' }).textContent()).toContain('Reports');
      const file = await download(vp, 'ledger', 'csv');
      const rows = records('ledger', 'csv', file.text);
      expect(rows.filter((r) => made.some((c) => c.id === r.checkoutId))).toHaveLength(made.length);
      expect(file.text).toBe((await checkoutCall(fx, fx.demo, 'GET', file.href)).body);
      await vp
        .getByRole('region', { name: /^Statement of/ })
        .getByRole('row')
        .filter({ hasText: walletId })
        .waitFor();
    } finally {
      await guard.check();
      await viewer.close();
    }
  }, 60_000);
});
