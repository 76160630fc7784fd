import jsqr from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSETS } from '../src/features/pay/assets.js';
import { PAGE_CSP } from '../src/http/page-headers.js';
import { qrSvg } from '../src/features/pay/qr.js';
import { configureChains } from './http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { cancel, createCheckout, type CreatedCheckout, simulate } from './pay/helpers.js';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
  await configureChains(fx.services);
});
afterAll(() => fx.close());

const get = (url: string, headers: Record<string, string> = {}) => fx.app.inject({ method: 'GET', url, headers });
const statusOf = async (id: string) =>
  (await get(`/pay/${id}/status`)).json<{
    result: {
      status: string;
      title: string;
      message: string;
      link: { href: string; text: string } | null;
      footer: string;
      amountText: string;
      options: { key: string; remaining: number; confirmations: number; walletUri: string | null }[];
      payments: { asset: string; chain: string; amount: number; txHash: string; explorerUrl: string | null }[];
    };
  }>().result;
/** Expires every checkout still open, by running the expiry 16 minutes ahead of the clock. */
async function expireOpenCheckouts(): Promise<void> {
  fx.clock.offsetMs += 16 * 60_000;
  try {
    await fx.services.checkouts.expireDue();
  } finally {
    fx.clock.offsetMs -= 16 * 60_000;
  }
}
const checkout = (extra: Record<string, unknown> = {}) =>
  createCheckout(fx, {
    amount: '100',
    currency: 'USDT',
    paymentOptions: [
      { asset: 'USDT', chain: 'TRON' },
      { asset: 'USDT', chain: 'ETH' },
    ],
    successUrl: 'https://shop.example/thanks',
    cancelUrl: 'https://shop.example/cart',
    ...extra,
  });

function expectPageHeaders(res: { headers: Record<string, unknown> }): void {
  expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
  expect(String(res.headers['content-security-policy'])).not.toContain('unsafe');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
}

describe('GET /pay/{id}', () => {
  it('shows merchant, description, amount, every option with exact amount, address, QR and copy buttons; nothing private', async () => {
    const c = await checkout({
      description: 'Two books',
      orderId: 'order-secret-77',
      metadata: { internal: 'meta-secret-42' },
    });
    const res = await get(`/pay/${c.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expectPageHeaders(res);
    const page = res.body;
    expect(page).toContain('<h1>Demo Shop</h1>');
    expect(page).toContain('Two books');
    expect(page).toContain('<p class="amount" data-amount>100 USDT</p>');
    expect(page).toContain('Sandbox: a test server');
    for (const o of c.paymentOptions) {
      expect(page).toContain(`<code>${o.address}</code>`);
      expect(page).toContain(`data-copy="${o.address}"`);
      expect(page).toContain(`<span data-remaining>${o.amountDue}</span> USDT`);
      expect(page).toContain(`/pay/${c.id}/qr.svg?option=USDT-${o.chain}`);
    }
    expect(page).toContain('href="https://shop.example/cart">Cancel and return to Demo Shop</a>');
    // Only its own files: no inline script or style, no other origin.
    expect(page).not.toMatch(/<script>|<style|style=|\son[a-z]+=|https?:\/\/(?!shop\.example)/);
    expect(page).toContain(`<script src="${ASSETS.js.path}" integrity="${ASSETS.js.integrity}" defer></script>`);
    for (const secret of ['order-secret-77', 'meta-secret-42']) {
      expect(page).not.toContain(secret);
      expect((await get(`/pay/${c.id}/status`)).body).not.toContain(secret);
    }
  });

  it('?option= picks the network shown without JavaScript; an unknown one falls back to the first', async () => {
    const c = await checkout();
    const shown = (body: string) =>
      /<div class="card option" id="option-([A-Z0-9-]+)" data-option="[^"]+">/.exec(body)?.[1];
    expect(shown((await get(`/pay/${c.id}`)).body)).toBe('USDT-TRON');
    expect(shown((await get(`/pay/${c.id}?option=USDT-ETH`)).body)).toBe('USDT-ETH');
    expect(shown((await get(`/pay/${c.id}?option=%3Cx%3E&option=2`)).body)).toBe('USDT-TRON');
  });

  it('unknown and malformed ids: a 404 page with the same headers, never JSON or a stack', async () => {
    for (const id of [
      'chk_doesnotexist0000000000000000',
      'nope',
      '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      'chk_' + 'a'.repeat(90),
      "chk_x'--",
    ]) {
      const res = await get(`/pay/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expectPageHeaders(res);
      expect(res.body).toContain('Payment page not found');
      expect(res.body).not.toContain('<script');
    }
  });

  it('the QR code is an SVG of the payment URI for what remains, rendered on the server', async () => {
    const c = await checkout();
    const res = await get(`/pay/${c.id}/qr.svg?option=USDT-ETH&v=100`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    const eth = c.paymentOptions.find((o) => o.chain === 'ETH')!;
    expect(res.body).toBe(
      await qrSvg(`ethereum:${eth.tokenContract}@1/transfer?address=${eth.address}&uint256=100000000`),
    );
    expect((await get(`/pay/${c.id}/qr.svg?option=BTC-BTC`)).statusCode).toBe(404);
    expect((await get(`/pay/${c.id}/qr.svg`)).statusCode).toBe(404);
  });

  it('the QR code reads back as its payment URI with an independent reader (jsQR), dark on an opaque white square', async () => {
    const uris = [
      'ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=0x52908400098527886E0F7030069857D2E4169EE7&uint256=100000000',
      'bitcoin:bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu?amount=0.00115',
      'tron:TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8',
    ];
    for (const uri of uris) {
      const svg = await qrSvg(uri);
      // The white square is what keeps it scannable on a page or viewer with a dark background.
      expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 (\d+) \1"[^>]*><path fill="#ffffff" d="M0 0h\1v\1H0z"\/>/);
      const { pixels, width } = rasterise(svg, 4);
      // jsqr is CommonJS: its module object is the function, with itself as .default (what the types name).
      expect(jsqr.default(pixels, width, width)?.data, uri).toBe(uri);
    }
  });

  it('static files: content-hashed names, cached a year, integrity as the page says', async () => {
    for (const asset of Object.values(ASSETS)) {
      expect(asset.path).toMatch(/^\/pay\/assets\/pay-[0-9a-f]{12}\.(css|js)$/);
      const res = await get(asset.path);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body).toBe(asset.body);
    }
    expect((await get('/pay/assets/pay-000000000000.js')).statusCode).toBe(404);
    // The script writes text, never markup.
    expect(ASSETS.js.body).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
  });
});

describe('every state has its screen, on the page and in /status', () => {
  it('open → underpaid (the remainder) → processing (confirmations) → settled (successUrl)', async () => {
    await configureChains(fx.services, 3);
    try {
      const c = await checkout();
      expect((await statusOf(c.id)).status).toBe('open');
      await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '40' });
      const under = await statusOf(c.id);
      expect([under.status, under.title]).toEqual(['underpaid', 'Partly paid']);
      expect(under.message).toContain('Send the remaining 60 USDT');
      expect(under.options.find((o) => o.key === 'USDT-TRON')!.remaining).toBe(60);
      const page = (await get(`/pay/${c.id}`)).body;
      expect(page).toContain('<span data-remaining>60</span> USDT');
      expect(page).toContain('data-option="USDT-TRON">'); // the paid option is the one shown
      await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '60', confirmations: 1 });
      const processing = await statusOf(c.id);
      expect(processing.status).toBe('processing');
      expect(processing.message).toContain('1 of 3 confirmations');
      expect((await get(`/pay/${c.id}`)).body).not.toContain('data-option=');
    } finally {
      await configureChains(fx.services, 1);
    }
    const d = await checkout();
    await simulate(fx, d.id, { asset: 'USDT', chain: 'ETH' });
    const settled = await statusOf(d.id);
    expect([settled.status, settled.title, settled.link]).toEqual([
      'settled',
      'Paid',
      { href: 'https://shop.example/thanks', text: 'Return to Demo Shop' },
    ]);
    expect((await get(`/pay/${d.id}`)).body).toContain(
      '<a data-state-link href="https://shop.example/thanks">Return to Demo Shop</a>',
    );
  });

  it('expired, canceled, needs review and invalid say so plainly', async () => {
    const expiring = await checkout();
    const under = await checkout();
    await simulate(fx, under.id, { asset: 'USDT', chain: 'TRON', amount: '1' });
    const canceled = await checkout();
    await cancel(fx, canceled.id);
    await expireOpenCheckouts();
    const e = await statusOf(expiring.id);
    expect([e.status, e.title]).toEqual(['expired', 'This payment request has expired']);
    expect(e.message).toContain('Do not send anything');
    const r = await statusOf(under.id);
    expect([r.status, r.title]).toEqual(['needs_review', 'Payment under review']);
    expect(r.message).toMatch(/^Contact Demo Shop/);
    const x = await statusOf(canceled.id);
    expect([x.status, x.link?.href]).toEqual(['canceled', 'https://shop.example/cart']);
    expect((await get(`/pay/${canceled.id}`)).body).toContain('Payment canceled');
    await fx.services.checkouts.rejectReview(under.id, { operator: 'test' });
    expect((await statusOf(under.id)).title).toBe('Payment rejected');
  });

  it('issue 24 item 8: an ended checkout shows no address, payment URI or QR code, in /status as on the page', async () => {
    const expiring = await checkout();
    const canceled = await checkout();
    const addressesOf = (c: CreatedCheckout) => c.paymentOptions.map((o) => o.address);
    const ended = { [expiring.id]: addressesOf(expiring), [canceled.id]: addressesOf(canceled) };
    // Before it ends the status carries the options: what this test looks for below is really there.
    const before = await get(`/pay/${canceled.id}/status`);
    for (const address of ended[canceled.id]!) expect(before.body).toContain(address);
    await cancel(fx, canceled.id);
    await expireOpenCheckouts();
    for (const [id, addresses] of Object.entries(ended)) {
      const status = await get(`/pay/${id}/status`);
      expect(status.statusCode).toBe(200);
      expect(status.json().result.options).toEqual([]);
      for (const address of addresses) {
        expect(status.body).not.toContain(address);
        expect((await get(`/pay/${id}`)).body).not.toContain(address);
      }
      expect(status.body).not.toMatch(/ethereum:|tron:|bitcoin:/);
      const qr = await get(`/pay/${id}/qr.svg?option=USDT-ETH`);
      expect([qr.statusCode, qr.json().error.code]).toEqual([404, 'NOT_FOUND']);
    }
    // An open checkout keeps them, QR code included.
    const open = await checkout();
    expect((await statusOf(open.id)).options.map((o) => o.key)).toEqual(['USDT-TRON', 'USDT-ETH']);
    expect((await get(`/pay/${open.id}/qr.svg?option=USDT-ETH`)).statusCode).toBe(200);
  });
});

describe('issue 26: links, amounts, footers and payments', () => {
  it('no "Open in a wallet app" link where the chain has no payment URI scheme (TRON); BIP-21/EIP-681 elsewhere', async () => {
    const c = await checkout();
    const page = (await get(`/pay/${c.id}`)).body;
    const walletLinks = [...page.matchAll(/<a class="wallet" data-uri href="([^"]*)"/g)].map((m) => m[1]);
    expect(walletLinks).toHaveLength(1);
    expect(walletLinks[0]).toMatch(/^ethereum:/);
    // No href anywhere is a bare address (it would resolve as /pay/<address>).
    const tron = c.paymentOptions.find((o) => o.chain === 'TRON')!;
    expect(page).not.toContain(`href="${tron.address}"`);
    const status = await statusOf(c.id);
    expect(status.options.find((o) => o.key === 'USDT-TRON')!.walletUri).toBeNull();
    expect(status.options.find((o) => o.key === 'USDT-ETH')!.walletUri).toMatch(/^ethereum:/);
  });

  it("fiat amounts with the currency's minor units in the payer's locale (English by default); crypto exact", async () => {
    const eur = await createCheckout(fx, {
      amount: '25.5',
      currency: 'EUR',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    const amountOf = async (headers: Record<string, string>) =>
      /<p class="amount" data-amount>([^<]*)<\/p>/.exec((await get(`/pay/${eur.id}`, headers)).body)?.[1];
    expect(await amountOf({})).toBe('€25.50');
    expect(await amountOf({ 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' })).toBe('25,50\u00a0€');
    expect(await amountOf({ 'accept-language': 'xx-YY, fr;q=0.5, de;q=0.7' })).toBe('25,50\u00a0€');
    expect(await amountOf({ 'accept-language': 'en-US;q=0, !!bad' })).toBe('€25.50');
    expect((await (await get(`/pay/${eur.id}/status`, { 'accept-language': 'de' })).json()).result.amountText).toBe(
      '25,50\u00a0€',
    );
    // More digits than the minor units are kept, never rounded away.
    const fine = await createCheckout(fx, {
      amount: '10.125',
      currency: 'EUR',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    expect((await get(`/pay/${fine.id}`)).body).toContain('<p class="amount" data-amount>€10.125</p>');
    // A crypto currency: its exact text, unrounded, and the option amounts too.
    const usdt = await checkout({ amount: '12.345678' });
    const page = (await get(`/pay/${usdt.id}`, { 'accept-language': 'de' })).body;
    expect(page).toContain('<p class="amount" data-amount>12.345678 USDT</p>');
    expect(page).toContain(`<span data-remaining>${usdt.paymentOptions[0]!.amountDue}</span>`);
  });

  it('each state has its own footer; the overpaid screen says by how much; Paid lists the payments with explorer links when configured', async () => {
    const footers = new Map<string, string>();
    // An installation's default: no explorer (the demo the fixture seeds sets them).
    await fx.services.admin.updateChain('TRON', { explorerTxUrl: null }, { operator: 'test' });
    const open = await checkout();
    footers.set('open', (await statusOf(open.id)).footer);
    expect((await get(`/pay/${open.id}`)).body).toContain(`<span data-footer>${footers.get('open')}</span>`);
    const over = await checkout();
    await simulate(fx, over.id, { asset: 'USDT', chain: 'TRON', amount: '100.5' });
    const paid = await statusOf(over.id);
    expect([paid.status, paid.title]).toEqual(['settled', 'Paid']);
    footers.set('settled', paid.footer);
    expect(paid.message).toContain('You sent 0.5 USDT more than the 100 USDT due');
    expect(paid.message).toContain('refund the difference');
    expect(paid.payments).toHaveLength(1);
    expect(paid.payments[0]).toMatchObject({ asset: 'USDT', chain: 'TRON', amount: 100.5, explorerUrl: null });
    let page = (await get(`/pay/${over.id}`)).body;
    expect(page).toContain(`<code class="tx">${paid.payments[0]!.txHash}</code>`);
    expect(page).not.toContain('tronscan');
    await fx.services.admin.updateChain(
      'TRON',
      { explorerTxUrl: 'https://tronscan.org/#/transaction/{tx}' },
      { operator: 'test' },
    );
    try {
      const linked = (await statusOf(over.id)).payments[0]!;
      expect(linked.explorerUrl).toBe(`https://tronscan.org/#/transaction/${encodeURIComponent(linked.txHash)}`);
      page = (await get(`/pay/${over.id}`)).body;
      expect(page).toContain(`<a href="${linked.explorerUrl}" rel="noopener noreferrer" target="_blank">`);
    } finally {
      await fx.services.admin.updateChain('TRON', { explorerTxUrl: null }, { operator: 'test' });
    }
    const canceled = await checkout();
    await cancel(fx, canceled.id);
    footers.set('canceled', (await statusOf(canceled.id)).footer);
    const under = await checkout();
    await simulate(fx, under.id, { asset: 'USDT', chain: 'TRON', amount: '1' });
    footers.set('underpaid', (await statusOf(under.id)).footer);
    await simulate(fx, under.id, { asset: 'USDT', chain: 'TRON', amount: '1', confirmations: 0 });
    await expireOpenCheckouts();
    footers.set('needs_review', (await statusOf(under.id)).footer);
    footers.set('expired', (await statusOf(open.id)).footer);
    expect([...footers.keys()].sort()).toEqual(['canceled', 'expired', 'needs_review', 'open', 'settled', 'underpaid']);
    // "Keep this page open until it says Paid" only where a payment is still to come.
    for (const [status, footer] of footers)
      expect(footer.includes('Keep this page open until it says Paid'), status).toBe(
        ['open', 'underpaid'].includes(status),
      );
    expect(footers.get('settled')).toMatch(/complete/);
  });
});

describe('GET /pay/{id}/status', () => {
  it('404 for unknown and malformed ids, as the error envelope', async () => {
    for (const id of ['chk_nobody', 'x', encodeURIComponent('<b>')]) {
      const res = await get(`/pay/${id}/status`);
      expect(res.statusCode).toBe(404);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('NOT_FOUND');
    }
  });

  it('is rate-limited per client address (429 with Retry-After; the page gets a 429 page)', async () => {
    const app = await fx.buildApp();
    const c = await checkout();
    const from = (ip: string, url: string) => app.inject({ method: 'GET', url, remoteAddress: ip });
    for (let i = 0; i < 240; i++) expect((await from('10.0.0.1', `/pay/${c.id}/status`)).statusCode).toBe(200);
    const limited = await from('10.0.0.1', `/pay/${c.id}/status`);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('10.0.0.2', `/pay/${c.id}/status`)).statusCode).toBe(200);
    for (let i = 0; i < 120; i++) await from('10.0.0.3', `/pay/${c.id}`);
    const page = await from('10.0.0.3', `/pay/${c.id}`);
    expect([page.statusCode, page.headers['content-type']]).toEqual([429, 'text/html; charset=utf-8']);
    expect(page.body).toContain('Too many requests');
  });
});

/**
 * Paints what a browser paints for qrSvg's document (a white square, then a stroke of width 1
 * along y + 0.5 for each dark run, written as absolute M and relative m/h steps) at `scale` pixels a
 * module, as RGBA. Any other drawing command fails the test rather than being skipped.
 */
function rasterise(svg: string, scale: number): { pixels: Uint8ClampedArray; width: number } {
  const size = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const width = size * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  const runs = /<path stroke="#000000" d="([^"]*)"\/>/.exec(svg)![1]!;
  expect(runs).toMatch(/^([Mm][\d.]+ [\d.]+h\d+)+$/);
  let x = 0;
  let y = 0;
  for (const [, command, a, b] of runs.matchAll(/([Mmh])([\d.]+)(?: ([\d.]+))?/g)) {
    if (command === 'M') [x, y] = [Number(a), Number(b)];
    else if (command === 'm') [x, y] = [x + Number(a), y + Number(b)];
    else {
      const top = (y - 0.5) * scale;
      for (let py = top; py < top + scale; py++)
        for (let px = x * scale; px < (x + Number(a)) * scale; px++)
          pixels.fill(0, (py * width + px) * 4, (py * width + px) * 4 + 3);
      x += Number(a);
    }
  }
  return { pixels, width };
}
