import { describe, expect, it } from 'vitest';
import { acceptedLanguages, chooseLanguage, cookieValue, langCookie } from '../../src/i18n/choose.js';
import { directionOf, matchLanguage } from '../../src/i18n/languages.js';
import { pageInLanguage } from '../../src/http/payer-language.js';

describe('matching a language tag', () => {
  it.each([
    ['en', 'en'],
    ['EN-gb', 'en'],
    ['es-MX', 'es'],
    ['pt', 'pt-BR'],
    ['pt-PT', 'pt-BR'],
    ['pt_BR', 'pt-BR'],
    ['zh', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['ja-JP', 'ja'],
    ['ar-EG', 'ar'],
  ])('%s → %s', (tag, lang) => expect(matchLanguage(tag)).toBe(lang));

  it.each(['zh-TW', 'zh-Hant', 'zh-HK', 'nl', 'x', '', '*', 'en;q=1', '../../etc', 'a'.repeat(40), '<script>'])(
    '%s is none of ours',
    (tag) => expect(matchLanguage(tag)).toBeUndefined(),
  );

  it('Arabic is written right to left, the others left to right', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('ja')).toBe('ltr');
  });
});

describe('choosing the payer language', () => {
  it('?lang= first, then the cookie, then Accept-Language, then the merchant, then English', () => {
    const all = { query: 'fr', cookie: 'a=1; hostpay_lang=de', acceptLanguage: 'ja', merchantDefault: 'es' };
    expect(chooseLanguage(all)).toEqual({ lang: 'fr', source: 'query' });
    expect(chooseLanguage({ ...all, query: undefined })).toEqual({ lang: 'de', source: 'cookie' });
    expect(chooseLanguage({ ...all, query: undefined, cookie: undefined })).toEqual({ lang: 'ja', source: 'header' });
    expect(chooseLanguage({ merchantDefault: 'es' })).toEqual({ lang: 'es', source: 'merchant' });
    expect(chooseLanguage({})).toEqual({ lang: 'en', source: 'default' });
  });

  it('skips what is not ours at each step, never failing', () => {
    expect(
      chooseLanguage({ query: 'xx', cookie: 'hostpay_lang=<b>', acceptLanguage: 'nl, zh-TW;q=0.9, it;q=0.5' }).lang,
    ).toBe('it');
    expect(chooseLanguage({ query: ['fr', 'de'], acceptLanguage: '*' }).lang).toBe('en');
  });

  it('orders Accept-Language by q-value, then order, ignoring q=0', () => {
    expect(acceptedLanguages('de;q=0.5, fr;q=0.9, es')).toEqual(['es', 'fr', 'de']);
    expect(acceptedLanguages('fr;q=0, de')).toEqual(['de']);
    expect(acceptedLanguages('pt-BR, pt-PT;q=0.9')).toEqual(['pt-BR']);
  });

  it('reads one cookie among several, and writes one the server alone reads', () => {
    expect(cookieValue('x=1;hostpay_lang=ar ; y=2', 'hostpay_lang')).toBe('ar');
    expect(cookieValue(undefined, 'hostpay_lang')).toBeUndefined();
    expect(langCookie('ar', true)).toBe('hostpay_lang=ar; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly; Secure');
    expect(langCookie('ar', false)).not.toContain('Secure');
  });

  it("the picker's links keep the page's other parameters and set lang once", () => {
    expect(pageInLanguage('/pay/ck_1', 'ja')).toBe('/pay/ck_1?lang=ja');
    expect(pageInLanguage('/pay/ck_1?option=a&lang=fr', 'ar')).toBe('/pay/ck_1?option=a&lang=ar');
  });
});
