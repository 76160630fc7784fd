import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { REPORT_COLUMNS } from '@hostpay/protocol';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCheckouts } from '../src/demo/checkouts.js';
import { launchChromium } from './browser/chromium.js';
import { pageGuard } from './browser/guard.js';
import { ALICE, OPERATOR_TOKENS } from './http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { parseCsv } from './reports/env.js';

/**
 * The console's Reports and Reconciliation screens in Chromium, over the demo's data: a report
 * downloaded and parsed (every merchant's rows, a last merchantId column), and the reconciliation
 * showing the demo's differences with their reasons (the demo reports its payments by hand). No
 * error banner or console error is allowed (pageGuard).
 */
describe('the console’s reports in Chromium', () => {
  let fx: HttpFixture;
  let base: string;
  let browser: Browser;
  let page: Page;
  const guard = pageGuard();

  beforeAll(async () => {
    fx = await createFixture({ adminTokens: OPERATOR_TOKENS, console: true, sandbox: true });
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    await seedDemoCheckouts(fx.services, fx.demo.merchantId);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    guard.watch(page);
    await page.goto(`${base}/console`);
    await page.getByLabel('Operator token').fill(ALICE);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('operator').waitFor();
  }, 60_000);
  afterEach(() => guard.check());
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  it('downloads every merchant’s checkouts as CSV with a last merchantId column', async () => {
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.getByLabel('Report kind').selectOption('checkouts');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^hostpay-checkouts-all-\d{8}T\d{6}Z-\d{8}T\d{6}Z\.csv$/);
    const [header, ...rows] = parseCsv(readFileSync((await download.path())!, 'utf8'));
    expect(header).toEqual([...REPORT_COLUMNS.checkouts, 'merchantId']);
    const orders = rows.map((r) => r[4]);
    for (const order of ['demo-open', 'demo-review', 'demo-settled-1']) expect(orders).toContain(order);
    for (const r of rows) expect(r.at(-1)).toBe(fx.demo.merchantId);
    await expect.poll(() => page.getByTestId('report-saved').textContent()).toContain(download.suggestedFilename());
  });

  it('an unknown merchant is the server’s error, shown on the page', async () => {
    await page.getByLabel('Merchant id').fill('mer_nobody');
    guard.expectError(/NOT_FOUND|404/);
    await page.getByRole('button', { name: 'Download' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('NOT_FOUND');
  });

  it('the reconciliation lists the demo’s differences with their reasons, highlighted', async () => {
    await page.getByRole('link', { name: 'Reconciliation' }).click();
    await page.getByRole('heading', { name: 'Differences' }).waitFor();
    const reasons = await page.getByTestId('difference-reason').allTextContents();
    // The demo's payments are reported by its seeding (an operator's name, not a watcher's).
    expect(reasons).toContain('reported by hand');
    await expect.poll(() => page.getByTestId('day-differences').first().textContent()).toBe(String(reasons.length));
    expect(await page.getByRole('status').filter({ hasText: 'to look at' }).textContent()).toContain(
      `${reasons.length} difference`,
    );
    expect(await page.getByTestId('no-differences').count()).toBe(0);
  });
});
