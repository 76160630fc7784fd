import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { dashboardSession } from '../http-helpers/dashboard-session.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { axeViolations } from './axe.js';
import { browserTestsEnabled, closePage, launchChromium } from './chromium.js';
import { pageGuard } from './guard.js';

/**
 * The dashboard's Payment links and Invoices pages in Chromium against the real server on a
 * loopback socket, as an owner uses them: a link made with line items (and one the payer prices),
 * its public URL copied to the clipboard and opened, changed, deactivated (its page answers 410)
 * and reactivated; an invoice drafted, edited, finalized, shared (the /i/ link copied, the PDF
 * downloaded), sent, and paid in two parts while its page is open — the status moves open →
 * partially paid → paid without a reload, through the event stream; another invoice voided. A
 * viewer sees both pages without a write button. Every screen: axe, and 360 px without sideways
 * scrolling. HOSTPAY_SCREENSHOTS=docs writes docs/img/dashboard-links.png and dashboard-invoices.png.
 */
const OUT = fileURLToPath(new URL('../../../../test-output/dashboard/', import.meta.url));
const DOCS = fileURLToPath(new URL('../../../../docs/img/', import.meta.url));
const DAY = 86_400_000;
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(fn, { timeout: 8_000, ...options });

interface Link {
  id: string;
  name: string;
  url: string;
  amount: string | null;
  minAmount: string | null;
  maxAmount: string | null;
  lineItems: { name: string; quantity: string; unitAmount: string }[] | null;
  collectEmail: string;
  maxUses: string | null;
  active: boolean;
  status: string;
}
interface Inv {
  id: string;
  number: string | null;
  status: string;
  total: string;
  amountPaid: string;
  amountDue: string;
  url: string | null;
  memo: string | null;
  sentAt: string | null;
  customer: { name: string | null; email: string | null };
  lineItems: { description: string; amount: string; tax: string }[];
}

describe.runIf(browserTestsEnabled())('the dashboard’s Payment links and Invoices pages in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let link: Link;
  let invoice: Inv;
  const guard = pageGuard();
  const api = async <T>(url: string) => resultOf<T>(await checkoutCall(fx, fx.demo, 'GET', url));
  const main = () => page.locator('main');

  async function noViolations(p: Page, screen: string): Promise<void> {
    const violations = await axeViolations(p);
    expect(
      violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`),
      screen,
    ).toEqual([]);
  }
  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: `${OUT}${name}.png` });
    if (process.env.HOSTPAY_SCREENSHOTS === 'docs') await page.screenshot({ path: `${DOCS}dashboard-${name}.png` });
  }
  async function signedIn(role: 'owner' | 'viewer'): Promise<BrowserContext> {
    const session = await dashboardSession(fx, fx.demo.merchantId, role);
    const [name, value] = session.cookie.split('=') as [string, string];
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await ctx.addCookies([
      { name, value, url: base, httpOnly: true, sameSite: 'Strict' },
      { name: `${name}_hint`, value: '1', url: base, sameSite: 'Strict' },
    ]);
    return ctx;
  }
  /** Clicks the copy button and answers what the clipboard then holds. */
  async function copied(button: ReturnType<Page['getByRole']>): Promise<string> {
    await button.click();
    await poll(() => page.getByTestId('copied').filter({ hasText: 'Copied.' }).count()).toBe(1);
    return page.evaluate(() => navigator.clipboard.readText());
  }
  /** Paid in full through the sandbox: the route the other browser tests use. */
  async function simulatePaid(checkoutId: string): Promise<void> {
    const paid = await checkoutCall(fx, fx.demo, 'POST', `/api/v1/cp/psp/hosted-pay/${checkoutId}/simulate-payment`, {
      asset: 'USDT',
      chain: 'TRON',
    });
    expect(resultOf<{ status: string }>(paid).status, paid.body).toBe('settled');
  }

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    fx = await createFixture({ sandbox: true });
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    await configureChains(fx.services);
    browser = await launchChromium();
    context = await signedIn('owner');
    page = guard.watch(await context.newPage());
    page.setDefaultTimeout(8_000);
  }, 60_000);
  afterEach(async (test) => {
    if (test.task.result?.state === 'fail')
      console.log(
        `after "${test.task.name}": ${page.url()}\n${await main()
          .innerText()
          .catch(() => '?')}`,
      );
    await guard.check();
  });
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('creates a link with line items, copies and opens its public URL, changes it, deactivates and reactivates it', async () => {
    await page.goto(`${base}/dashboard`);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Payment links' }).click();
    await page.getByRole('heading', { name: 'Payment links', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New payment link' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Yoga class');
    await page.getByLabel('Currency').fill('USDT');
    await page.getByLabel('Line items (the price is their sum)').check();
    await page.getByLabel('Line 1 item').fill('Class');
    await page.getByLabel('Line 1 quantity').fill('2');
    await page.getByLabel('Line 1 unit price').fill('12.5');
    await page.getByRole('button', { name: 'Add a line' }).click();
    await page.getByLabel('Line 2 item').fill('Mat');
    await page.getByLabel('Line 2 unit price').fill('5');
    await page.getByLabel("Payer's email").selectOption('required');
    await page.getByLabel('Max uses (optional)').fill('3');
    const expires = new Date(Date.now() + 30 * DAY).toISOString().slice(0, 16);
    await page.getByLabel('Expires (optional, UTC)').fill(expires);
    await noViolations(page, 'new payment link');
    await page.getByRole('button', { name: 'Create payment link' }).click();
    await poll(() => new URL(page.url()).pathname).toMatch(/^\/dashboard\/links\/plink_/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    link = await api<Link>(`/api/v1/cp/payment-links/${id}`);
    expect(link).toMatchObject({ name: 'Yoga class', amount: '30', collectEmail: 'required', maxUses: '3' });
    expect(link.lineItems).toEqual([
      { name: 'Class', quantity: '2', unitAmount: '12.5' },
      { name: 'Mat', quantity: '1', unitAmount: '5' },
    ]);
    expect(await page.getByTestId('link-status').textContent()).toBe('active');
    expect(await page.getByTestId('link-uses').textContent()).toBe('0 of 3');
    expect(await page.getByTestId('link-facts').textContent()).toContain(`${expires.replace('T', ' ')}:00Z`);
    // The address on screen is the API's, and the copy button puts exactly it on the clipboard.
    expect(await page.getByTestId('link-url').textContent()).toBe(link.url);
    expect(link.url).toMatch(new RegExp(`^${base}/l/`));
    expect(await copied(page.getByRole('button', { name: 'Copy link of Yoga class' }))).toBe(link.url);
    const [pub] = await Promise.all([context.waitForEvent('page'), page.getByTestId('link-url').click()]);
    guard.watch(pub);
    await pub.getByRole('heading', { name: 'Yoga class' }).waitFor();
    expect(await pub.locator('body').textContent()).toContain('Mat');
    await closePage(pub);
    await noViolations(page, 'payment link');

    await page.getByLabel('Name', { exact: true }).fill('Yoga class, two');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Yoga class, two');
    expect((await api<Link>(`/api/v1/cp/payment-links/${id}`)).name).toBe('Yoga class, two');

    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByTestId('confirm').getByRole('button', { name: 'Deactivate' }).click();
    await poll(() => page.getByTestId('link-status').textContent()).toBe('inactive');
    expect((await fx.app.inject({ method: 'GET', url: new URL(link.url).pathname })).statusCode).toBe(410);
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await poll(() => page.getByTestId('link-status').textContent()).toBe('active');
    expect((await fx.app.inject({ method: 'GET', url: new URL(link.url).pathname })).statusCode).toBe(200);
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByTestId('confirm').getByRole('button', { name: 'Deactivate' }).click();
    await poll(() => page.getByTestId('link-status').textContent()).toBe('inactive');
    expect((await api<Link>(`/api/v1/cp/payment-links/${id}`)).active).toBe(false);
  }, 60_000);

  it('creates a link the payer prices within bounds; the list shows each link’s price, uses and state', async () => {
    await page.getByRole('link', { name: '← Payment links' }).click();
    await page.getByRole('link', { name: 'New payment link' }).click();
    // An amount the server refuses (more decimals than EUR has): its error is shown, nothing is made.
    guard.expectError(/INVALID_AMOUNT|status of 400/);
    await page.getByLabel('Name', { exact: true }).fill('Donation');
    await page.getByLabel('Amount', { exact: true }).fill('1.001');
    await page.getByRole('button', { name: 'Create payment link' }).click();
    await poll(() => main().getByRole('alert').textContent()).toContain('INVALID_AMOUNT');
    expect(new URL(page.url()).pathname).toBe('/dashboard/links/new');
    await page.getByLabel('Currency').fill('USDT');
    await page.getByLabel('The payer types the amount').check();
    await page.getByLabel('Lowest amount (optional)').fill('1');
    await page.getByLabel('Highest amount (optional)').fill('100');
    await page.getByLabel('Success URL (optional)').fill('https://shop.example/thanks/{CHECKOUT_ID}');
    await page.getByRole('button', { name: 'Create payment link' }).click();
    await poll(() => page.getByTestId('link-status').textContent()).toBe('active');
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    expect(await api<Link>(`/api/v1/cp/payment-links/${id}`)).toMatchObject({
      amount: null,
      minAmount: '1',
      maxAmount: '100',
      collectEmail: 'none',
      maxUses: null,
    });
    await page.getByRole('link', { name: '← Payment links' }).click();
    const table = page.getByRole('region', { name: 'Payment links, newest first' });
    const row = (name: string) => table.getByRole('row').filter({ hasText: name });
    await poll(() => row('Donation').textContent()).toContain('payer types it');
    expect(await row('Donation').textContent()).toContain('active');
    expect(await row('Yoga class, two').textContent()).toMatch(/30.*USDT.*2 items.*0 of 3.*inactive/);
    expect(await copied(page.getByRole('button', { name: 'Copy link of Yoga class, two' }))).toBe(link.url);
    expect(await table.getByRole('row').count()).toBe(3); // the header and the two links
    await noViolations(page, 'payment links');
    await shot('links');
  }, 60_000);

  it('drafts an invoice, edits the draft, finalizes, shares its page and PDF, and sends it', async () => {
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Invoices' }).click();
    await page.getByRole('link', { name: 'New invoice' }).click();
    await page.getByLabel('Customer name').fill('Ada Lovelace');
    await page.getByLabel('Customer email').fill('ada@example.com');
    await page.getByLabel('Currency').fill('USDT');
    await page.getByLabel('Line 1 description').fill('Hosting');
    await page.getByLabel('Line 1 quantity').fill('2');
    await page.getByLabel('Line 1 unit price').fill('40');
    await page.getByLabel('Line 1 tax %').fill('25');
    await page.getByLabel('Memo (optional, printed on the invoice)').fill('Thank you');
    const due = new Date(Date.now() + 14 * DAY).toISOString().slice(0, 10);
    await page.getByLabel('Due date (optional, UTC)').fill(due);
    await noViolations(page, 'new invoice');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await poll(() => page.getByTestId('invoice-status').textContent()).toBe('draft');
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    expect(await page.getByTestId('invoice-total').getByText('100').count()).toBe(1);

    // The draft changed: a cheaper line 1 and a second line without tax, still 100 in all.
    await page.getByLabel('Line 1 unit price').fill('32');
    await page.getByRole('button', { name: 'Add a line' }).click();
    await page.getByLabel('Line 2 description').fill('Setup');
    await page.getByLabel('Line 2 unit price').fill('20');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await poll(() => page.getByRole('region', { name: 'Lines' }).textContent()).toContain('Setup');
    invoice = await api<Inv>(`/api/v1/cp/invoices/${id}`);
    expect(invoice.lineItems.map((l) => [l.description, l.amount, l.tax])).toEqual([
      ['Hosting', '64', '16'],
      ['Setup', '20', '0'],
    ]);
    expect(invoice).toMatchObject({
      total: '100',
      memo: 'Thank you',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    await noViolations(page, 'draft invoice');

    await page.getByRole('button', { name: 'Finalize' }).click();
    await page.getByTestId('confirm').getByRole('button', { name: 'Finalize' }).click();
    await poll(() => page.getByTestId('invoice-status').textContent()).toBe('open');
    invoice = await api<Inv>(`/api/v1/cp/invoices/${id}`);
    expect(invoice.number).toBe('INV-000001');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Invoice INV-000001');
    expect(await page.getByTestId('invoice-url').textContent()).toBe(invoice.url);
    expect(await copied(page.getByRole('button', { name: 'Copy link of INV-000001' }))).toBe(invoice.url);
    expect(invoice.url).toMatch(new RegExp(`^${base}/i/`));
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invoice-pdf').click()]);
    expect(
      readFileSync(await file.path())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(file.suggestedFilename()).toContain('INV-000001');
    await page.getByRole('button', { name: 'Send to the customer' }).click();
    await poll(() => main().textContent()).toContain('Invoice sent.');
    expect((await api<Inv>(`/api/v1/cp/invoices/${id}`)).sentAt).not.toBeNull();
    await noViolations(page, 'open invoice');
  }, 60_000);

  it('sees the invoice go open → partially paid → paid live as payments settle, without a reload', async () => {
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    // 40 of 100 through a checkout of the invoice, paid in full in the sandbox.
    const part = await fx.services.checkouts.createFrom(
      fx.demo.merchantId,
      { amount: '40', currency: 'USDT' },
      { origin: { invoiceId: invoice.id } },
    );
    await simulatePaid(part.id);
    await poll(() => page.getByTestId('invoice-status').textContent(), { timeout: 15_000 }).toBe('partially paid');
    expect(await page.getByTestId('invoice-due').locator('[data-exact]').getAttribute('data-exact')).toBe('60');
    // The rest as a payer pays it: Pay on the invoice's public page, then the sandbox pays that checkout.
    const payer = guard.watch(await context.newPage());
    await payer.goto(invoice.url!);
    await payer.getByRole('button', { name: /Pay/ }).click();
    await poll(() => new URL(payer.url()).pathname).toMatch(/^\/pay\/chk_/);
    const rest = new URL(payer.url()).pathname.split('/').pop()!;
    await closePage(payer);
    expect((await api<{ amount: string }>(`/api/v1/cp/psp/hosted-pay/${rest}`)).amount).toBe('60');
    await simulatePaid(rest);
    await poll(() => page.getByTestId('invoice-status').textContent(), { timeout: 15_000 }).toBe('paid');
    expect(await page.getByTestId('invoice-paid').locator('[data-exact]').getAttribute('data-exact')).toBe('100');
    expect(await page.getByTestId('invoice-due').locator('[data-exact]').getAttribute('data-exact')).toBe('0');
    expect(await page.getByTestId('invoice-checkouts').getByRole('link').allTextContents()).toEqual([part.id, rest]);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect((await api<Inv>(`/api/v1/cp/invoices/${invoice.id}`)).status).toBe('paid');
    await noViolations(page, 'paid invoice');
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('invoices');
  }, 60_000);

  it('finalizes and voids another invoice; the list filters by status', async () => {
    await page.getByRole('link', { name: '← Invoices' }).click();
    await page.getByRole('link', { name: 'New invoice' }).click();
    await page.getByLabel('Currency').fill('USDT');
    await page.getByLabel('Line 1 description').fill('Consulting');
    await page.getByLabel('Line 1 unit price').fill('50');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await poll(() => page.getByTestId('invoice-status').textContent()).toBe('draft');
    // Without an email there is nothing to send it to: no Send button.
    expect(await page.getByRole('button', { name: 'Send to the customer' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Finalize' }).click();
    await page.getByTestId('confirm').getByRole('button', { name: 'Finalize' }).click();
    await poll(() => page.getByTestId('invoice-status').textContent()).toBe('open');
    await page.getByRole('button', { name: 'Void' }).click();
    await page.getByTestId('confirm').getByRole('button', { name: 'Void' }).click();
    await poll(() => page.getByTestId('invoice-status').textContent()).toBe('void');
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    expect(await api<Inv>(`/api/v1/cp/invoices/${id}`)).toMatchObject({ status: 'void', number: 'INV-000002' });
    expect(await page.getByRole('button', { name: 'Finalize' }).count()).toBe(0);
    await page.getByRole('link', { name: '← Invoices' }).click();
    const table = page.getByRole('region', { name: 'Invoices, newest first' });
    await poll(() => table.getByRole('row').count()).toBe(3);
    await page.getByLabel('Status').selectOption('void');
    await page.getByRole('button', { name: 'Search' }).last().click();
    await poll(() => table.getByRole('row').allTextContents()).toHaveLength(2);
    expect(await table.getByRole('row').nth(1).textContent()).toContain('INV-000002');
    await noViolations(page, 'invoices');
  }, 60_000);

  it('a viewer sees both pages and every figure, without a write button', async () => {
    const viewer = await signedIn('viewer');
    try {
      const vp = guard.watch(await viewer.newPage());
      vp.setDefaultTimeout(8_000);
      await vp.goto(`${base}/dashboard/links`);
      await vp.getByRole('region', { name: 'Payment links, newest first' }).waitFor();
      const nav = vp.getByRole('navigation', { name: 'Dashboard' });
      expect(await nav.getByRole('link', { name: 'Payment links' }).count()).toBe(1);
      expect(await nav.getByRole('link', { name: 'Invoices' }).count()).toBe(1);
      expect(await vp.getByRole('link', { name: 'New payment link' }).count()).toBe(0);
      await vp.goto(`${base}/dashboard/links/${link.id}`);
      await vp.getByTestId('link-status').waitFor();
      expect(await vp.getByRole('button', { name: /Deactivate|Reactivate|Save changes/ }).count()).toBe(0);
      await vp.goto(`${base}/dashboard/invoices/${invoice.id}`);
      await poll(() => vp.getByTestId('invoice-status').textContent()).toBe('paid');
      expect(await vp.getByRole('button', { name: /Send|Void|Finalize|uncollectible/ }).count()).toBe(0);
      await vp.goto(`${base}/dashboard/invoices`);
      await vp.getByRole('region', { name: 'Invoices, newest first' }).waitFor();
      expect(await vp.getByRole('link', { name: 'New invoice' }).count()).toBe(0);
      await noViolations(vp, 'invoices as a viewer');
    } finally {
      await guard.check();
      await viewer.close();
    }
  }, 60_000);

  it('at 360 px: the lists, a link, an invoice and both forms fit the screen', async () => {
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
      for (const [path, ready] of [
        ['/links', 'Payment links, newest first'],
        [`/links/${link.id}`, 'link-status'],
        ['/links/new', 'Create payment link'],
        ['/invoices', 'Invoices, newest first'],
        [`/invoices/${invoice.id}`, 'invoice-status'],
        ['/invoices/new', 'Save draft'],
      ] as const) {
        await page.goto(`${base}/dashboard${path}`);
        if (ready.includes(' ')) {
          const target = ready.startsWith('Create') || ready.startsWith('Save') ? 'button' : 'region';
          await page.getByRole(target, { name: ready }).waitFor();
        } else await page.getByTestId(ready).waitFor();
        if (path === '/links/new') await page.getByLabel('Line items (the price is their sum)').check();
        expect(await overflow(), path).toEqual({ width: 360, out: [] });
        await noViolations(page, `${path} at 360 px`);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  }, 90_000);
});
