import type { FastifyReply, FastifyRequest } from 'fastify';
import { chooseLanguage, LANG_COOKIE, langCookie } from '../i18n/choose.js';
import { LANGUAGES, type Lang } from '../i18n/languages.js';
import { type Speech, speechOf } from '../i18n/messages.js';

/** What a public page needs to speak the payer's language: the language, and the links of its picker. */
export interface PageSpeech extends Speech {
  /** The language picker's links: this page in each language. */
  links: ReadonlyArray<{ lang: Lang; name: string; href: string }>;
}

/** At most this much of the request's query is carried into the picker's links. */
const QUERY_MAX = 512;

/** This page's path and query, `lang` set to `lang` (the other parameters kept, e.g. `?option=`). */
export function pageInLanguage(url: string, lang: Lang): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : url.slice(q + 1, q + 1 + QUERY_MAX));
  params.set('lang', lang);
  return `${path}?${params.toString()}`;
}

/** The sources of a request's language (i18n/choose.ts), as both a page and its JSON polls read them. */
function sourcesOf(req: FastifyRequest, merchantDefault?: string | null) {
  return {
    query: (req.query as Record<string, unknown> | undefined)?.lang,
    cookie: req.headers.cookie,
    acceptLanguage: req.headers['accept-language'],
    merchantDefault,
  };
}

/**
 * The payer's language for a public page (i18n/choose.ts: `?lang=`, cookie, Accept-Language, the
 * merchant's default, English). A `?lang=` pick is remembered in a cookie, so the payer's next
 * page (the receipt, a refund form) opens in it too. Once per reply: a route that asks again once
 * it knows the merchant's default sets the same cookie, not a second one.
 */
export function payerSpeech(req: FastifyRequest, reply: FastifyReply, merchantDefault?: string | null): PageSpeech {
  const choice = chooseLanguage(sourcesOf(req, merchantDefault));
  if (choice.source === 'query' && !remembered(reply))
    reply.header('set-cookie', langCookie(choice.lang, req.protocol === 'https'));
  return {
    ...speechOf(choice.lang),
    links: LANGUAGES.map((l) => ({ lang: l.code, name: l.name, href: pageInLanguage(req.url, l.code) })),
  };
}

/** Whether this reply already carries the language cookie. */
function remembered(reply: FastifyReply): boolean {
  const set = reply.getHeader('set-cookie');
  const all = Array.isArray(set) ? set : set === undefined ? [] : [String(set)];
  return all.some((c) => c.startsWith(`${LANG_COOKIE}=`));
}

/** The language of a JSON answer a page asks for itself (its status polls): `?lang=`, else as a page would choose. */
export function requestLanguage(req: FastifyRequest, merchantDefault?: string | null): Lang {
  return chooseLanguage(sourcesOf(req, merchantDefault)).lang;
}
