import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, html } from '../src/features/pay/html.js';
import { ENGLISH } from '../src/i18n/messages.js';
import type { PayView } from '../src/features/pay/pay-view.js';
import { paymentPage } from '../src/features/pay/templates/page.js';
import { configureChains } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { createCheckout } from './pay/helpers.js';

/** Strings written to break out of text, attributes, comments and raw-text elements. */
const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '</title><script>alert(1)</script>',
  '<!--',
  '--><script>x</script>',
  '`$' + '{alert(1)}`',
  '&lt;script&gt;',
  '&#x3C;script&#x3E;',
  'javascript:alert(1)',
  '<a href="javascript:alert(1)">x</a>',
  '</p></section><form action=//evil>',
  '\u0000<\u0000script>',
  '<style>*{display:none}</style>',
  '<meta http-equiv="refresh" content="0;url=//evil">',
  '<base href="//evil/">',
  '\u2028\u2029<iframe>',
  'a'.repeat(500),
];
const hostile = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('<', '>', '"', "'", '&', '`', '=', '/', ' ', 'a', ';', '#', 'x'), maxLength: 60 }),
);

const view = (description: string, merchantName: string): PayView => ({
  id: 'chk_abc123',
  receiptNumber: null,
  receiptUrl: null,
  status: 'open',
  reason: null,
  merchantName,
  logoUrl: null,
  description,
  amount: '10',
  currency: 'EUR',
  expiresAt: '2030-01-01T00:00:00.000Z',
  successUrl: null,
  cancelUrl: 'https://shop.example/cart',
  options: [
    {
      key: 'USDT-TRON',
      asset: 'USDT',
      chain: 'TRON',
      network: 'TRC20',
      address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
      amountDue: '10.84',
      received: '0',
      remaining: '10.84',
      confirmations: 0,
      confirmationsRequired: 19,
      paymentUri: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
      walletUri: null,
    },
  ],
  fiatCurrency: true,
  payments: [],
});
const render = (description: string, merchant: string) =>
  paymentPage({
    view: view(description, merchant),
    option: undefined,
    sandbox: true,
    now: '2030-01-01T00:00:00.000Z',
    speech: ENGLISH,
  }).text;

describe('merchant text is escaped by construction', () => {
  it('property: a page with hostile description and merchant name differs from a benign one only by their escaped text', () => {
    fc.assert(
      fc.property(hostile, hostile, (d, m) => {
        // Markers make the escaped text unique in the page, so replacing it back is unambiguous.
        const description = `QZD${d}DZQ`;
        const merchant = `QZM${m}MZQ`;
        const page = render(description, merchant);
        const escaped = [escapeHtml(description), escapeHtml(merchant)];
        for (const e of escaped) expect(e).not.toMatch(/[<>"'`]/);
        const benign = render('QZDDZQ', 'QZMMZQ');
        expect(page.split(escaped[0]!).join('QZDDZQ').split(escaped[1]!).join('QZMMZQ')).toBe(benign);
      }),
      { numRuns: 300 },
    );
  });

  it('the tagged template escapes every value, nested templates and arrays included, and writes nothing for false/null', () => {
    const evil = '<b onclick="x">&\'`';
    expect(html`<p title="${evil}">${evil}</p>`.text).toBe(
      '<p title="&lt;b onclick=&quot;x&quot;&gt;&amp;&#39;&#96;">&lt;b onclick=&quot;x&quot;&gt;&amp;&#39;&#96;</p>',
    );
    expect(html`${[evil, html`<i>${evil}</i>`]}${false}${null}${undefined}${0}`.text).toBe(
      `${escapeHtml(evil)}<i>${escapeHtml(evil)}</i>0`,
    );
  });
});

describe('over HTTP: hostile strings stored through the merchant API', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  it('no hostile description, metadata or order id reaches the page or the status feed as markup', async () => {
    for (const text of HOSTILE.filter((t) => !t.includes('\u0000'))) {
      const c = await createCheckout(fx, {
        amount: '5',
        currency: 'USDT',
        paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
        description: text.slice(0, 500),
        orderId: text.slice(0, 64),
        metadata: { note: text.slice(0, 500) },
      });
      const page = (await fx.app.inject({ method: 'GET', url: `/pay/${c.id}` })).body;
      expect(page).toContain(escapeHtml(text.slice(0, 500)));
      const tags = page.match(/<[a-zA-Z!/][^>]*>/g) ?? [];
      for (const tag of tags)
        expect(tag, text).not.toMatch(/\son[a-z]+=|<script>|<iframe|<svg|<img src=x|<meta http|<base|<form|<style/i);
      // metadata and order id are never shown, escaped or not
      expect(page.split(escapeHtml(text.slice(0, 500))).length - 1).toBe(1);
      const status = (await fx.app.inject({ method: 'GET', url: `/pay/${c.id}/status` })).json<{
        result: Record<string, unknown>;
      }>().result;
      expect(Object.keys(status)).not.toContain('metadata');
      expect(Object.keys(status)).not.toContain('orderId');
    }
  });
});
