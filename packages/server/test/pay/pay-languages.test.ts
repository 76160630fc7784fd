import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayView } from '../../src/features/pay/pay-view.js';
import { stateCopy } from '../../src/features/pay/state-copy.js';
import { notFoundPage, tooManyPage } from '../../src/features/pay/templates/not-found.js';
import { paymentPage } from '../../src/features/pay/templates/page.js';
import { LANG_COOKIE } from '../../src/i18n/choose.js';
import { LANG_CODES, LANGUAGES } from '../../src/i18n/languages.js';
import { ENGLISH, speechOf } from '../../src/i18n/messages.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { createCheckout, simulate } from './helpers.js';

/** The page's text as a payer reads it: tags dropped, entities left (none of them is a brace). */
const visibleText = (page: string) =>
  page
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

const option = (chain: string, network: string, received: string, remaining: string) => ({
  key: `USDT-${chain}`,
  asset: 'USDT',
  chain,
  network,
  address: chain === 'TRON' ? 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH' : '0x52908400098527886E0F7030069857D2E4169EE7',
  amountDue: '100',
  received,
  remaining,
  confirmations: 1,
  confirmationsRequired: 19,
  paymentUri: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
  walletUri: null,
});

function view(status: string, reason: string | null = null): PayView {
  const paid = status !== 'open' && status !== 'expired' && status !== 'canceled';
  const over = reason === 'paid_over';
  return {
    id: 'chk_languages01',
    status,
    reason,
    merchantName: 'Demo Shop',
    logoUrl: null,
    description: 'Two books',
    amount: '25.5',
    currency: 'EUR',
    fiatCurrency: true,
    expiresAt: '2030-01-01T00:15:00.000Z',
    successUrl: 'https://shop.example/thanks',
    cancelUrl: 'https://shop.example/cart',
    options: [
      option(
        'TRON',
        'TRC20',
        paid ? (over ? '100.5' : status === 'underpaid' ? '40' : '100') : '0',
        status === 'underpaid' ? '60' : paid ? '0' : '100',
      ),
      option('ETH', 'ERC20', over ? '3' : '0', '100'),
    ],
    payments: paid
      ? [
          {
            asset: 'USDT',
            chain: 'TRON',
            amount: '40',
            txHash: 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2',
            explorerUrl: 'https://tronscan.org/#/transaction/a1b2',
          },
        ]
      : [],
    receiptNumber: status === 'settled' ? 'RCPT-000042' : null,
    receiptUrl: status === 'settled' ? 'https://pay.example/pay/chk_languages01/receipt' : null,
  };
}

const STATES: [string, string | null][] = [
  ['open', null],
  ['underpaid', null],
  ['processing', null],
  ['settled', null],
  ['settled', 'paid_over'],
  ['expired', null],
  ['canceled', null],
  ['needs_review', 'paid_partial'],
  ['needs_review', 'paid_late'],
  ['needs_review', 'wrong_asset'],
  ['needs_review', null],
  ['invalid', null],
];

describe('every state of the payment page in every language', () => {
  for (const lang of LANG_CODES)
    it(`${lang}: each state renders with every placeholder filled, in ${lang}`, () => {
      const s = speechOf(lang);
      for (const [status, reason] of STATES) {
        const label = `${lang} ${status}/${reason}`;
        const v = view(status, reason);
        const page = paymentPage({
          view: v,
          option: undefined,
          sandbox: true,
          now: '2030-01-01T00:00:00.000Z',
          speech: s,
        }).text;
        expect(page, label).toContain(`<html lang="${lang}" dir="${s.dir}">`);
        expect(visibleText(page), label).not.toMatch(/[{}]/);
        // The words the script writes come filled with %name% only, never an ICU brace.
        for (const [, value] of page.matchAll(/data-t-[a-z-]+="([^"]*)"/g)) expect(value, label).not.toMatch(/[{}]/);
        const copy = stateCopy(s, v);
        for (const text of [copy.title, copy.message, copy.footer, copy.link?.text ?? 'x']) {
          expect(text.trim(), label).not.toBe('');
          expect(text, label).not.toMatch(/[{}#]/);
        }
        if (lang !== 'en') {
          const english = stateCopy(ENGLISH, v);
          expect(copy.title, label).not.toBe(english.title);
          expect(copy.message, label).not.toBe(english.message);
          expect(copy.footer, label).not.toBe(english.footer);
        }
      }
      for (const page of [notFoundPage(true, s).text, tooManyPage(true, 30, s).text]) {
        expect(page).toContain(`<html lang="${lang}" dir="${s.dir}">`);
        expect(visibleText(page)).not.toMatch(/[{}]/);
      }
    });

  it('exact values read left to right inside Arabic sentences (isolated), and stay byte for byte in English', () => {
    const ar = stateCopy(speechOf('ar'), view('underpaid'));
    expect(ar.message).toContain('\u206660\u2069');
    expect(ar.message).toContain('\u2066USDT\u2069');
    const en = stateCopy(ENGLISH, view('underpaid'));
    expect(en.message).toBe(
      'We received 40 USDT. Send the remaining 60 USDT on TRC20 to the same address before the time runs out.',
    );
    expect(stateCopy(speechOf('de'), view('processing')).message).toMatch(/^Bisher 1 von 19 Bestätigungen in TRC20\./);
    expect(stateCopy(speechOf('ru'), view('processing')).message).toMatch(/^Пока 1 из 19 подтверждений в сети TRC20\./);
  });

  it('the overpaid screen keeps the exact excess and the held amount in every language', () => {
    for (const lang of LANG_CODES) {
      const m = stateCopy(speechOf(lang), view('settled', 'paid_over')).message;
      expect(m.replace(/[\u2066\u2069]/g, ''), lang).toContain('0.5');
      expect(m.replace(/[\u2066\u2069]/g, ''), lang).toContain('3');
      expect(m, lang).toContain('Demo Shop');
    }
  });
});

describe('the payer chooses the language over HTTP', () => {
  let fx: HttpFixture;
  let id: string;
  beforeAll(async () => {
    fx = await createFixture({ sandbox: true });
    await configureChains(fx.services);
    id = (
      await createCheckout(fx, { amount: '25.5', currency: 'EUR', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] })
    ).id;
  });
  afterAll(() => fx.close());
  const get = (url: string, headers: Record<string, string> = {}) => fx.app.inject({ method: 'GET', url, headers });
  const htmlTag = (body: string) => /<html lang="([^"]+)" dir="(ltr|rtl)">/.exec(body)?.slice(1);

  it('?lang= writes the page in that language, remembers it in a cookie, and sends its polls in it', async () => {
    for (const { code, dir } of LANGUAGES) {
      const res = await get(`/pay/${id}?lang=${code}`);
      expect(res.statusCode, code).toBe(200);
      expect(htmlTag(res.body), code).toEqual([code, dir]);
      expect(String(res.headers['set-cookie']), code).toMatch(new RegExp(`^${LANG_COOKIE}=${code}; Path=/;.*HttpOnly`));
      expect(res.body, code).toContain(`data-status-url="/pay/${id}/status?lang=${code}"`);
      expect(res.body, code).toContain(`aria-current="true">${LANGUAGES.find((l) => l.code === code)!.name}</a>`);
    }
    const de = (await get(`/pay/${id}?lang=de`)).body;
    expect(de).toContain('<p class="to">Zahlung an</p>');
    expect(de).toContain('<p class="label">Senden Sie genau</p>');
    expect(de).toContain('<p class="amount" data-amount>25,50\u00a0€</p>');
    expect(de).toContain('data-t-copied="Kopiert"');
    expect(de).toMatch(/Verbleibende Zeit: <time [^>]+>\d+:\d\d<\/time> \(bis \d\d:\d\d UTC\)/);
  });

  it('without ?lang=: the remembered cookie, then Accept-Language, then English; no cookie is set', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ cookie: `${LANG_COOKIE}=ja`, 'accept-language': 'de' }, 'ja'],
      [{ cookie: `other=1; ${LANG_COOKIE}=ar`, 'accept-language': 'fr' }, 'ar'],
      [{ cookie: `${LANG_COOKIE}=xx`, 'accept-language': 'fr-CA,en;q=0.5' }, 'fr'],
      [{ 'accept-language': 'pt-PT' }, 'pt-BR'],
      [{ 'accept-language': 'zh-TW, ru;q=0.4' }, 'ru'],
      [{ 'accept-language': 'xx' }, 'en'],
      [{}, 'en'],
    ];
    for (const [headers, lang] of cases) {
      const res = await get(`/pay/${id}`, headers);
      expect(htmlTag(res.body)?.[0], JSON.stringify(headers)).toBe(lang);
      expect(res.headers['set-cookie'], JSON.stringify(headers)).toBeUndefined();
    }
    // ?lang= wins over both, and an unknown ?lang= falls through to the next choice.
    expect(
      htmlTag((await get(`/pay/${id}?lang=tr`, { cookie: `${LANG_COOKIE}=ja`, 'accept-language': 'de' })).body),
    ).toEqual(['tr', 'ltr']);
    expect(htmlTag((await get(`/pay/${id}?lang=klingon`, { cookie: `${LANG_COOKIE}=ja` })).body)).toEqual([
      'ja',
      'ltr',
    ]);
    expect(htmlTag((await get(`/pay/${id}`)).body)).toEqual(['en', 'ltr']);
  });

  it('the status JSON speaks the page language: ?lang=, else cookie, else Accept-Language', async () => {
    const status = async (url: string, headers: Record<string, string> = {}) =>
      (await get(url, headers)).json<{
        result: { title: string; message: string; footer: string; amountText: string };
      }>().result;
    expect(await status(`/pay/${id}/status`)).toMatchObject({
      title: 'Waiting for your payment',
      amountText: '€25.50',
    });
    expect(await status(`/pay/${id}/status?lang=fr`)).toMatchObject({
      title: 'En attente de votre paiement',
      amountText: '25,50\u00a0€',
    });
    expect((await status(`/pay/${id}/status?lang=ja`)).footer).toContain('お支払い済み');
    expect((await status(`/pay/${id}/status`, { cookie: `${LANG_COOKIE}=es` })).title).toBe('Esperando su pago');
    expect((await status(`/pay/${id}/status`, { 'accept-language': 'it' })).title).toBe('In attesa del pagamento');
    expect((await status(`/pay/${id}/status?lang=nope`)).title).toBe('Waiting for your payment');
    // The poll never sets the cookie: only a page the payer opened with ?lang= remembers a pick.
    expect((await get(`/pay/${id}/status?lang=fr`)).headers['set-cookie']).toBeUndefined();
  });

  it('a state change reaches the page in its language: underpaid in Arabic, with its exact remainder', async () => {
    const c = await createCheckout(fx, {
      amount: '100',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    });
    await simulate(fx, c.id, { asset: 'USDT', chain: 'TRON', amount: '40' });
    const r = (await get(`/pay/${c.id}/status?lang=ar`)).json<{ result: { title: string; message: string } }>().result;
    expect(r.title).toBe('مدفوع جزئيًا');
    expect(r.message).toContain('\u206660\u2069');
    const page = (await get(`/pay/${c.id}?lang=ar`)).body;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('<h2 id="state-title" data-state-title>مدفوع جزئيًا</h2>');
  });

  it('the not-found page is in the payer language too', async () => {
    const res = await get('/pay/chk_doesnotexist0000000000000000?lang=ru');
    expect(res.statusCode).toBe(404);
    expect(htmlTag(res.body)).toEqual(['ru', 'ltr']);
    expect(res.body).toContain('Страница оплаты не найдена');
    const en = await get('/pay/chk_doesnotexist0000000000000000');
    expect(en.body).toContain('Payment page not found');
  });
});
