import { pageInLanguage } from '../../http/payer-language.js';
import { DEFAULT_LANG, isLang, type Lang, matchLanguage } from '../../i18n/languages.js';
import { type MessageValues, type Speech, speechOf } from '../../i18n/messages.js';
import type { Db } from '../../store/store.js';

/**
 * The merchant's default language for its payers' mails (docs/mail.md, "The payer's language"):
 * its settings' `language` (`merchants.default_language`, migration 35), the one its public pages
 * fall back to. Read when the mail is rendered (a mail is rare; the pages' cached look lives in
 * self-service). Unset, unknown or a code no longer ours: English, never an error, so the mail
 * still goes out.
 */
export async function mailLanguageOf(db: Db, merchantId: string | null): Promise<Lang> {
  if (merchantId === null) return DEFAULT_LANG;
  const row = await db
    .selectFrom('merchants')
    .select('default_language')
    .where('id', '=', merchantId)
    .executeTakeFirst();
  return matchLanguage(row?.default_language) ?? DEFAULT_LANG;
}

/**
 * The language a payer's mail is written in: the payer's own when the mail's data names one (a
 * sender that knows it records it as `lang`; none does yet: the public pages keep the payer's
 * pick in a cookie, not in the store), else the merchant's default, else English.
 */
export async function payerMailLanguage(
  db: Db,
  merchantId: string | null,
  data: Record<string, unknown>,
): Promise<Lang> {
  if (isLang(data.lang)) return data.lang;
  return mailLanguageOf(db, merchantId);
}

/**
 * A link from a mail to a public page, with `?lang=` so the page opens in the mail's language
 * (and remembers it, as a pick on the page would). Other query parameters are kept.
 */
export function linkInLanguage(url: string, lang: Lang): string {
  if (url === '') return url;
  const hash = url.indexOf('#');
  return hash === -1 ? pageInLanguage(url, lang) : `${pageInLanguage(url.slice(0, hash), lang)}${url.slice(hash)}`;
}

/** First-strong isolate … pop directional isolate (Unicode bidi: the text inside keeps its own direction). */
const isolate = (s: string) => `\u2068${s}\u2069`;

/**
 * A payer mail's language. In a right-to-left language every text a message is filled with is
 * isolated: an amount, a hash, a network or a Latin merchant name stays one left-to-right unit
 * where the Arabic sentence puts it, instead of its digits and words being reordered around it.
 */
export function mailSpeech(lang: Lang): Speech {
  const speech = speechOf(lang);
  if (speech.dir !== 'rtl') return speech;
  const isolated = (values?: MessageValues) =>
    values === undefined
      ? undefined
      : Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? isolate(v) : v]));
  return { ...speech, t: (key, values) => speech.t(key, isolated(values)) };
}
