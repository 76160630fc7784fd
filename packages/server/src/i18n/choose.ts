import { readCookie } from '../auth/cookie-session.js';
import { DEFAULT_LANG, type Lang, matchLanguage } from './languages.js';

/** The cookie that remembers a payer's pick on the public pages (a year; the pages' own path only). */
export const LANG_COOKIE = 'hostpay_lang';
/** At most this many Accept-Language entries are looked at (the header is the client's to fill). */
const MAX_RANGES = 12;

export interface LanguageSources {
  /** `?lang=` of the request. */
  query?: unknown;
  /** The request's Cookie header. */
  cookie?: string | string[] | undefined;
  acceptLanguage?: string | string[] | undefined;
  /** The merchant's default language (its settings), when it set one. */
  merchantDefault?: string | null | undefined;
}

export interface LanguageChoice {
  lang: Lang;
  /** Where it came from: `query` is a pick the page should remember (a cookie). */
  source: 'query' | 'cookie' | 'header' | 'merchant' | 'default';
}

/** The cookie's value, or undefined: the sessions' reader (auth/cookie-session.ts), for a header Node may give as a list. */
export function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  return readCookie(Array.isArray(header) ? header.join('; ') : header, name);
}

/** The supported languages of an Accept-Language header, by q-value then order. */
export function acceptedLanguages(header: string | string[] | undefined): Lang[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const ranges = text
    .slice(0, 512)
    .split(',')
    .slice(0, MAX_RANGES)
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  const out: Lang[] = [];
  for (const r of ranges) {
    const lang = matchLanguage(r.tag);
    if (lang !== undefined && !out.includes(lang)) out.push(lang);
  }
  return out;
}

/**
 * The payer's language, in the order the pages promise: `?lang=`, then the pick remembered in
 * the cookie, then Accept-Language, then the merchant's default, then English. A value that is
 * not one of ours is skipped, never an error: a stale link or cookie still shows a page.
 */
export function chooseLanguage(s: LanguageSources): LanguageChoice {
  const query = typeof s.query === 'string' ? matchLanguage(s.query) : undefined;
  if (query !== undefined) return { lang: query, source: 'query' };
  const cookie = matchLanguage(cookieValue(s.cookie, LANG_COOKIE));
  if (cookie !== undefined) return { lang: cookie, source: 'cookie' };
  const [header] = acceptedLanguages(s.acceptLanguage);
  if (header !== undefined) return { lang: header, source: 'header' };
  const merchant = matchLanguage(s.merchantDefault);
  if (merchant !== undefined) return { lang: merchant, source: 'merchant' };
  return { lang: DEFAULT_LANG, source: 'default' };
}

/** The Set-Cookie value that remembers a pick (readable by the server only; sent back on the pages' paths). */
export function langCookie(lang: Lang, secure: boolean): string {
  return `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`;
}
