import type { AddressInfo } from 'node:net';
import { SCOPES } from '@hostpay/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../browser/axe.js';
import { browserTestsEnabled, launchChromium } from '../browser/chromium.js';
import { pageGuard } from '../browser/guard.js';
import { ALICE, OPERATOR_TOKENS } from '../http-helpers/admin-fixture.js';
import { checkoutCall, configureChains, resultOf } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';

/**
 * The console's Mail screen in Chromium, on a server without a mail transport (the demo's case):
 * the mails it would have sent (an invitation, an invoice, a payer's receipt) are kept and listed
 * newest first with their subjects; one is opened and shows its text with its link; axe-core
 * finds no violation on the list or the opened mail. No error banner or console error (pageGuard).
 */
describe.runIf(browserTestsEnabled())('the console’s Mail screen in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let page: Page;
  let receiptUrl: string;
  const guard = pageGuard();
  const payer = 'payer@example.com';

  beforeAll(async () => {
    fx = await createFixture({ adminTokens: OPERATOR_TOKENS, console: true });
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    await configureChains(fx.services);
    const key = await fx.createKey(fx.demo.merchantId, { scopes: [...SCOPES] });
    const call = (url: string, body: unknown) =>
      checkoutCall(fx, key, 'POST', url, body, { 'idempotency-key': `k-${Math.random().toString(36).slice(2)}` });
    await fx.services.admin.inviteMerchantUser(fx.demo.merchantId, 'new-owner@example.com', 'owner', {
      operator: 'test',
    });
    const invoice = resultOf<{ id: string }>(
      await call('/api/v1/cp/invoices', {
        currency: 'EUR',
        customer: { name: 'Ada', email: 'ada@example.com' },
        lineItems: [{ description: 'Consulting', quantity: 1, unitAmount: '40' }],
      }),
    );
    await call(`/api/v1/cp/invoices/${invoice.id}/finalize`, {});
    expect((await call(`/api/v1/cp/invoices/${invoice.id}/send`, {})).statusCode).toBe(200);
    const c = resultOf<{ id: string; paymentOptions: { address: string }[] }>(
      await call('/api/v1/cp/psp/hosted-pay', {
        amount: '15',
        currency: 'USDT',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        customerEmail: payer,
      }),
    );
    await fx.services.checkouts.reportTransfer(
      {
        chain: 'TRON',
        txHash: '0xconsolemail',
        index: 0,
        toAddress: c.paymentOptions[0]!.address,
        asset: 'USDT',
        amount: '15',
        confirmations: 1,
      },
      { operator: 'test' },
    );
    receiptUrl = `${base}/pay/${c.id}/receipt`;
    await fx.services.mail.sender.runOnce();

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    guard.watch(page);
    page.setDefaultTimeout(10_000);
    await page.goto(`${base}/console`);
    await page.getByLabel('Operator token').fill(ALICE);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('operator').waitFor();
  }, 90_000);
  afterEach(() => guard.check());
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  const noViolations = async (screen: string) => expect(await axeViolations(page), screen).toEqual([]);

  it('lists the kept mails with their subjects, and one opened shows its text and link', async () => {
    await page.getByRole('link', { name: 'Mail' }).click();
    await page.getByRole('heading', { name: 'Mail', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Mails, newest first' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const texts = await rows.allTextContents();
    // Newest first: the receipt, the invoice, the invitation; every one kept (no transport).
    expect(texts[0]).toContain(payer);
    expect(texts[0]).toMatch(/kept.*Receipt RCPT-\d{6} from .*: 15 USDT/);
    expect(texts[1]).toMatch(/ada@example\.com.*invoice.*kept.*Invoice INV-000001 from .*: €40\.00 due/);
    expect(texts[2]).toMatch(/new-owner@example\.com.*invitation.*kept/);
    await noViolations('mail list');

    await rows
      .nth(0)
      .getByRole('button', { name: /^Read mail / })
      .click();
    expect(
      await rows
        .nth(0)
        .getByRole('button', { name: /^Hide mail / })
        .getAttribute('aria-expanded'),
    ).toBe('true');
    const article = page.getByRole('article');
    await article.locator('pre').waitFor();
    expect(await article.getByRole('heading').textContent()).toMatch(/^Receipt RCPT-\d{6} from /);
    const text = (await article.locator('pre').textContent()) ?? '';
    expect(text).toContain(receiptUrl);
    expect(text).toContain('0xconsolemail');
    await noViolations('mail opened');

    // Filtered by recipient, only that mail is left.
    await page.getByLabel('To').fill(payer);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => rows.count()).toBe(1);
  });
});
