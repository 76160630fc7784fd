import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCall, configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { LINKS, newLink, nonceOf, submit } from './helpers.js';

/** The payment link page in the payer's language (issue 48): chosen by ?lang=, the cookie or Accept-Language. */
describe('the payment link page in the payer’s language', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true, linkCheckoutsPerAddressPerMinute: 1000 });
    await configureChains(fx.services);
  });
  afterAll(() => fx.close());

  const get = (url: string, headers: Record<string, string> = {}) => fx.app.inject({ method: 'GET', url, headers });
  const langOf = (res: LightMyRequestResponse) => /<html lang="([^"]+)" dir="([^"]+)">/.exec(res.body)?.slice(1);
  const errorOf = (res: LightMyRequestResponse, field: string) =>
    new RegExp(`<p class="field-error" id="${field}-error">([^<]*)</p>`).exec(res.body)?.[1];

  it('?lang= picks the language and is remembered; the form posts back with it; the picker links keep the page', async () => {
    const link = await newLink(fx, { name: 'Tip jar', minAmount: '5', maxAmount: '50', collectEmail: 'optional' });
    const res = await get(`/l/${link.slug}?lang=es`);
    expect(res.statusCode).toBe(200);
    expect(langOf(res)).toEqual(['es', 'ltr']);
    expect(res.headers['set-cookie']).toMatch(/^hostpay_lang=es;/);
    expect(res.body).toContain('<p class="to">Pago a Demo Shop</p>');
    expect(res.body).toContain('<label for="amount">Importe (USDT)</label>');
    expect(res.body).toContain(
      '<p class="hint" id="amount-hint">Entre 5\u00a0USDT y 50\u00a0USDT. Hasta 6 decimales.</p>',
    );
    expect(res.body).toContain('<label for="email">Correo electrónico (opcional)</label>');
    expect(res.body).toContain('<button type="submit">Pagar</button>');
    expect(res.body).toContain(`action="/l/${link.slug}?lang=es"`);
    expect(res.body).toContain(`href="/l/${link.slug}?lang=ja" hreflang="ja" lang="ja"`);
    expect(res.body).not.toMatch(/Payment to|Amount \(|>Pay</);
  });

  it('the form errors are in the language of the page the form came from (?lang= or the cookie)', async () => {
    const link = await newLink(fx, { name: 'Typed', minAmount: '5', maxAmount: '50', collectEmail: 'required' });
    const nonce = nonceOf(await get(`/l/${link.slug}?lang=de`));
    const de = (fields: Record<string, string>) => submit(fx, `${link.slug}?lang=de`, { nonce, ...fields });
    const cases: [Record<string, string>, string, string][] = [
      [{ amount: '' }, 'amount', 'Geben Sie den zu zahlenden Betrag in USDT ein.'],
      [{ amount: '4.99' }, 'amount', 'Der Betrag muss mindestens 5\u00a0USDT betragen.'],
      [{ amount: '50.01' }, 'amount', 'Der Betrag darf höchstens 50\u00a0USDT betragen.'],
      [{ amount: '5.1234567' }, 'amount', 'Geben Sie einen Betrag mit höchstens 6 Nachkommastellen ein.'],
      [{ amount: 'abc' }, 'amount', 'Geben Sie den Betrag als Zahl größer als 0 ein, zum Beispiel 25.'],
      [{ amount: '10' }, 'email', 'Geben Sie Ihre E-Mail-Adresse ein: Der Händler benötigt sie für diese Zahlung.'],
      [
        { amount: '10', email: 'not an email' },
        'email',
        'Geben Sie genau eine E-Mail-Adresse ein, zum Beispiel name@example.com.',
      ],
    ];
    for (const [fields, field, words] of cases) {
      const res = await de(fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(langOf(res)).toEqual(['de', 'ltr']);
      expect(errorOf(res, field), JSON.stringify(fields)).toBe(words);
    }
    // With the cookie only (a form of a page whose language was remembered): Turkish.
    const old = `${(fx.now() - 11 * 60_000).toString(36)}.AAAAAAAAAAAAAAAAAAAAAA`;
    const stale = await submit(fx, link.slug, { nonce: old }, { cookie: 'hostpay_lang=tr' });
    expect(stale.statusCode).toBe(400);
    expect(langOf(stale)).toEqual(['tr', 'ltr']);
    expect(errorOf(stale, 'form')).toBe(
      'Bu form 10 dakikadan daha eski. Bilgileri kontrol edip yeniden Öde düğmesine basın.',
    );
    // And a payer who types right pays: the 303 to the payment page.
    const ok = await de({ amount: '12.5', email: 'payer@example.com' });
    expect(ok.statusCode, ok.body).toBe(303);
  });

  it('Accept-Language: line items, their total and a fiat price formatted in the language', async () => {
    const items = await newLink(fx, {
      name: 'Bundle',
      lineItems: [
        { name: 'Mug', quantity: 2, unitAmount: '7.5' },
        { name: 'Poster', quantity: 1, unitAmount: '10' },
      ],
    });
    const fr = await get(`/l/${items.slug}`, { 'accept-language': 'fr-CA,fr;q=0.9' });
    expect(langOf(fr)).toEqual(['fr', 'ltr']);
    expect(fr.body).toContain('<h2 id="items-title">Articles</h2>');
    expect(fr.body).toContain('<li>2 × Mug: <bdi dir="ltr">7.5\u00a0USDT</bdi></li>');
    expect(fr.body).toContain('<strong>Total à payer: <bdi dir="ltr">25\u00a0USDT</bdi></strong>');
    const usd = await newLink(fx, { name: 'Ticket', currency: 'USD', amount: '25.5' });
    const de = await get(`/l/${usd.slug}`, { 'accept-language': 'de-AT' });
    expect(de.body).toContain('<p class="amount"><bdi dir="ltr">25,50\u00a0$</bdi></p>');
    const en = await get(`/l/${usd.slug}`);
    expect(en.body).toContain('<p class="amount"><bdi dir="ltr">$25.50</bdi></p>');
  });

  it('the 410 pages (inactive, used up with its count, expired with its date) and the 404 page are translated', async () => {
    const patch = (id: string, body: Record<string, unknown>) =>
      checkoutCall(fx, fx.demo, 'PATCH', `${LINKS}/${id}`, body, { 'idempotency-key': `lang-${id}-${Date.now()}` });
    const off = await newLink(fx, { name: 'Off', amount: '10' });
    await patch(off.id, { active: false });
    const ja = await get(`/l/${off.slug}?lang=ja`);
    expect(ja.statusCode).toBe(410);
    expect(langOf(ja)).toEqual(['ja', 'ltr']);
    expect(ja.body).toContain('<h2 id="state-title">この支払いリンクは無効になっています</h2>');

    const once = await newLink(fx, { name: 'Once', amount: '10', maxUses: 3 });
    for (let i = 0; i < 3; i++) {
      const nonce = nonceOf(await get(`/l/${once.slug}`));
      expect((await submit(fx, once.slug, { nonce })).statusCode).toBe(303);
    }
    const ru = await get(`/l/${once.slug}?lang=ru`);
    expect(ru.statusCode).toBe(410);
    expect(ru.body).toContain('Она была создана для 3 платежей и больше не принимает оплату.');
    const ar = await get(`/l/${once.slug}`, { cookie: 'hostpay_lang=ar' });
    expect(langOf(ar)).toEqual(['ar', 'rtl']);
    expect(ar.body).toContain('أُنشئ هذا الرابط لـ 3 دفعات');

    const soon = await newLink(fx, { name: 'Soon', amount: '10' });
    await patch(soon.id, { expiresAt: '2030-03-01T12:00:00.000Z' });
    fx.clock.offsetMs += Date.parse('2030-03-02T00:00:00Z') - fx.now();
    try {
      const it = await get(`/l/${soon.slug}?lang=it`);
      expect(it.statusCode).toBe(410);
      expect(it.body).toContain('Non accetta più pagamenti dal 1 marzo 2030');
    } finally {
      fx.clock.offsetMs = 0;
    }

    const missing = await get('/l/AAAAAAAAAAAAAAAAAAAAAA?lang=pt-BR');
    expect(missing.statusCode).toBe(404);
    expect(langOf(missing)).toEqual(['pt-BR', 'ltr']);
    expect(missing.body).toContain('Link de pagamento não encontrado');
  });

  it('the merchant API stays English whatever the Accept-Language', async () => {
    const res = await checkoutCall(
      fx,
      fx.demo,
      'POST',
      LINKS,
      { name: ' ', currency: 'USDT', amount: '10' },
      { 'idempotency-key': 'lang-api-english', 'accept-language': 'es', cookie: 'hostpay_lang=es' },
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).message).toBe('name must be 1 to 200 characters');
  });
  it("the merchant's default language comes after the payer's own choices, and its colours are linked", async () => {
    const link = await newLink(fx, { name: 'Default', amount: '10' });
    const set = (body: unknown) =>
      checkoutCall(fx, fx.demo, 'PATCH', '/api/v1/cp/settings', body, { 'idempotency-key': `lang-${Math.random()}` });
    expect((await set({ language: 'fr', brandColor: '#0b57d0' })).statusCode).toBe(200);
    try {
      // No ?lang=, no cookie, no Accept-Language: the merchant's French.
      const fr = await get(`/l/${link.slug}`);
      expect(langOf(fr)).toEqual(['fr', 'ltr']);
      expect(fr.body).toMatch(/<link rel="stylesheet" href="\/pay\/assets\/brand-0b57d0-[0-9a-f]{6}\.css"/);
      // The payer's browser still wins over the merchant's default, and ?lang= over both.
      expect(langOf(await get(`/l/${link.slug}`, { 'accept-language': 'ja' }))).toEqual(['ja', 'ltr']);
      const picked = await get(`/l/${link.slug}?lang=ar`, { 'accept-language': 'ja' });
      expect(langOf(picked)).toEqual(['ar', 'rtl']);
      // The page asks for the language again once it knows the merchant's: the pick is set once.
      expect([picked.headers['set-cookie']].flat().filter((c) => c?.startsWith('hostpay_lang='))).toEqual([
        expect.stringMatching(/^hostpay_lang=ar;/),
      ]);
      // A browser language that is none of ours falls to the merchant's default, not to English.
      expect(langOf(await get(`/l/${link.slug}`, { 'accept-language': 'nl' }))).toEqual(['fr', 'ltr']);
    } finally {
      await set({ language: null, brandColor: null });
    }
    expect(langOf(await get(`/l/${link.slug}`))).toEqual(['en', 'ltr']);
  });
});
