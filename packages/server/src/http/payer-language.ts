import type { FastifyReply, FastifyRequest } from 'fastify';
import { chooseLanguage, langCookie } from '../i18n/choose.js';
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

/**
 * The payer's language for a public page (i18n/choose.ts: `?lang=`, cookie, Accept-Language, the
 * merchant's default, English). A `?lang=` pick is remembered in a cookie, so the payer's next
 * page (the receipt, a refund form) opens in it too.
 */
export function payerSpeech(req: FastifyRequest, reply: FastifyReply, merchantDefault?: string | null): PageSpeech {
  const query = (req.query as Record<string, unknown> | undefined)?.lang;
  const choice = chooseLanguage({
    query,
    cookie: req.headers.cookie,
    acceptLanguage: req.headers['accept-language'],
    merchantDefault,
  });
  if (choice.source === 'query') reply.header('set-cookie', langCookie(choice.lang, req.protocol === 'https'));
  return {
    ...speechOf(choice.lang),
    links: LANGUAGES.map((l) => ({ lang: l.code, name: l.name, href: pageInLanguage(req.url, l.code) })),
  };
}

/** The language of a JSON answer a page asks for itself (its status polls): `?lang=`, else as a page would choose. */
export function requestLanguage(req: FastifyRequest, merchantDefault?: string | null): Lang {
  return chooseLanguage({
    query: (req.query as Record<string, unknown> | undefined)?.lang,
    cookie: req.headers.cookie,
    acceptLanguage: req.headers['accept-language'],
    merchantDefault,
  }).lang;
}
