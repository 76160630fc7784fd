import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CSP } from '../../src/http/page-headers.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { createCheckout } from '../pay/helpers.js';

/**
 * The merchant's display name and logo on the hosted payment page: escaped like every value, the
 * name in the title and heading, a data: logo under the page's usual CSP, an https logo with
 * exactly its origin added to img-src — and a merchant without settings sees the page as before.
 */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
  await configureChains(fx.services);
});
afterAll(() => fx.close());

const user = () => ({ merchantId: fx.demo.merchantId, userId: 'usr_test', email: 'owner@shop.example', ip: null });
const PNG = `data:image/png;base64,${Buffer.from('tiny png').toString('base64')}`;
const page = async () => {
  const c = await createCheckout(fx, {
    amount: '10',
    currency: 'USDT',
    paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
  });
  const res = await fx.app.inject({ method: 'GET', url: `/pay/${c.id}` });
  expect(res.statusCode).toBe(200);
  return { html: res.body, csp: String(res.headers['content-security-policy']) };
};

describe('payment page branding', () => {
  it('without settings: the merchant name, no logo, the usual CSP', async () => {
    const { html, csp } = await page();
    expect(html).not.toContain('class="logo"');
    expect(html).toMatch(/<h1>Demo[^<]*<\/h1>/);
    expect(csp).toBe(PAGE_CSP);
  });

  it('shows the display name (escaped) and a data: logo, CSP unchanged', async () => {
    await fx.services.selfService.settings.update(user(), {
      displayName: '<img src=x onerror=alert(1)> "Shop"',
      logoUrl: PNG,
    });
    const { html, csp } = await page();
    expect(html).toContain('<h1>&lt;img src=x onerror=alert(1)&gt; &quot;Shop&quot;</h1>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain(`<img class="logo" src="${PNG}" alt="&lt;img src=x onerror=alert(1)&gt; &quot;Shop&quot;"`);
    expect(html).toContain('<title>Pay &lt;img');
    expect(csp).toBe(PAGE_CSP);
  });

  it('a logo on a private address stored before hosts were checked is not shown, nor allowed by the CSP', async () => {
    await fx.services.store.db
      .updateTable('merchants')
      .set({ logo_url: 'https://10.0.0.5/logo.png' })
      .where('id', '=', fx.demo.merchantId)
      .execute();
    const { html, csp } = await page();
    expect(html).not.toContain('class="logo"');
    expect(html).not.toContain('10.0.0.5');
    expect(csp).toBe(PAGE_CSP);
  });

  it('an https logo: its origin, and only it, is added to img-src', async () => {
    await fx.services.selfService.settings.update(user(), {
      displayName: 'Café Zürich',
      logoUrl: 'https://cdn.shop.example/brand/logo.png?v=2',
    });
    const { html, csp } = await page();
    expect(html).toContain('<h1>Café Zürich</h1>');
    expect(html).toContain('<img class="logo" src="https://cdn.shop.example/brand/logo.png?v=2"');
    expect(csp).toBe(PAGE_CSP.replace("img-src 'self' data:", "img-src 'self' data: https://cdn.shop.example"));
    expect(csp).not.toContain('unsafe');
    // The status feed names the merchant the same way.
    const c = await createCheckout(fx, {
      amount: '10',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    const status = (await fx.app.inject({ method: 'GET', url: `/pay/${c.id}/status` })).json<{
      result: { merchantName: string };
    }>();
    expect(status.result.merchantName).toBe('Café Zürich');
  });
});

describe('payment page colours', () => {
  it('links the palette stylesheet once the merchant has colours; the CSP is unchanged', async () => {
    await fx.services.selfService.settings.update(user(), { brandColor: '#8b7500', accentColor: null, logoUrl: null });
    const { html, csp } = await page();
    expect(html).toContain('<link rel="stylesheet" href="/pay/assets/brand-8b7500-0b57d0.css" integrity="sha384-');
    expect(csp).toBe(PAGE_CSP);
    await fx.services.selfService.settings.update(user(), { brandColor: null });
    expect((await page()).html).not.toContain('/pay/assets/brand-');
  });
});
