import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsEnabled, closePage, launchChromium } from './chromium.js';

/**
 * closePage against the Chromium race it exists for: a page closed as soon as the page a 303 led
 * to has committed. A plain `page.close()` there never settled 12 times in 100 on this machine
 * (crbug.com/536385539). Every one closing, 20 in a row with the load awaited and 30 without (each
 * dropped close asked again), is what closePage must give; without the second ask the second fails.
 */
describe.runIf(browserTestsEnabled())('closing a page just after a form post’s 303', () => {
  let server: Server;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.method === 'POST') {
        req.resume();
        req.on('end', () => res.writeHead(303, { location: `/after/${Math.random()}` }).end());
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        req.url?.startsWith('/after/')
          ? '<!doctype html><title>after</title><h1>after</h1>'
          : '<!doctype html><title>form</title><form method="post"><button>Pay</button></form>',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  /** Opens the form, posts it, and waits for the page its 303 leads to, as the dashboard tests do. */
  async function pageJustAfter303() {
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(() => new URL(page.url()).pathname, { interval: 5, timeout: 10_000 }).toMatch(/^\/after\//);
    return page;
  }

  it('closes every one of 20 pages, each right after its navigation committed', async () => {
    for (let i = 0; i < 20; i++) await closePage(await pageJustAfter303());
    expect(context.pages()).toEqual([]);
  }, 120_000);

  it('closes them without waiting for their load too: a dropped close is asked again', async () => {
    // Here the race is met (12 of 100 plain closes never settled): asking again must close each.
    for (let i = 0; i < 30; i++) await closePage(await pageJustAfter303(), { waitForLoad: false });
    expect(context.pages()).toEqual([]);
  }, 120_000);
});
