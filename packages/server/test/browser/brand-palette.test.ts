import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { darkAccent, LIGHT_GROUNDS, nearestPassing, WHITE } from '../../src/features/self-service/brand.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { createCheckout, simulate } from '../pay/helpers.js';
import { axeViolations } from './axe.js';
import { browserTestsEnabled, launchChromium } from './chromium.js';

/**
 * A merchant palette on the payment page in Chromium: the computed colours are the palette's (the
 * accent's dark shade in dark mode), and axe finds nothing in light or dark even with hostile
 * palettes that only just pass the settings check (the lightest yellow accepted; black).
 */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
// The lightest shades of a light yellow that settings accept: each only just reaches 4.5:1.
const PALETTES = [
  { brandColor: nearestPassing('#ffd700', [WHITE]), accentColor: nearestPassing('#ffd700', LIGHT_GROUNDS) },
  { brandColor: '#000000', accentColor: '#000000' },
];

describe.runIf(browserTestsEnabled())('a merchant palette in Chromium', () => {
  let fx: HttpFixture;
  let browser: Browser;
  let page: Page;
  let url: string;

  beforeAll(async () => {
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(fx.app.server.address() as AddressInfo).port}`;
    fx.services.setListenUrl(base);
    const c = await createCheckout(fx, {
      amount: '10',
      currency: 'USDT',
      paymentOptions: [
        { asset: 'USDT', chain: 'TRON' },
        { asset: 'USDT', chain: 'ETH' },
      ],
    });
    // Underpaid: the state box (a tinted ground) carries text, and the page its links.
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '4' });
    url = `${base}/pay/${c.id}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 360, height: 740 }, colorScheme: 'light' })).newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await fx?.close();
  });

  const style = (selector: string, property: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

  for (const palette of PALETTES)
    it(`brand ${palette.brandColor}, accent ${palette.accentColor}: its colours, and axe clean light and dark`, async () => {
      const user = { merchantId: fx.demo.merchantId, userId: 'usr_test', email: 'owner@shop.example', ip: null };
      await fx.services.selfService.settings.update(user, palette);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(url);
      expect(await style('button', 'background-color')).toBe(rgb(palette.brandColor));
      expect(await style('button', 'color')).toBe('rgb(255, 255, 255)');
      expect(await style('body', 'border-top-color')).toBe(rgb(palette.brandColor));
      expect(await style('main a', 'color')).toBe(rgb(palette.accentColor));
      const light = await axeViolations(page);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await style('main a', 'color')).toBe(rgb(darkAccent(palette.accentColor)));
      expect(await style('button', 'background-color')).toBe(rgb(palette.brandColor));
      const dark = await axeViolations(page);
      expect({ light, dark }).toEqual({ light: [], dark: [] });
    });
});
