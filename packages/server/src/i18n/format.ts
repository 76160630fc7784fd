import type { Lang } from './languages.js';

/**
 * Dates and money in the payer's language, for every public page, document and mail alike.
 * Exact amounts stay exact: fiat amounts go to Intl as decimal text (formatted exactly, no float;
 * ES2023 Intl.NumberFormat v3) with every digit the merchant asked for kept; crypto amounts are
 * never formatted (the exact text the payer must send, unrounded). Formatters are made on first
 * use per language and kept.
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(lang: Lang, currency: string): Intl.NumberFormat {
  const id = `n\u0000${lang}\u0000${currency}`;
  let f = cache.get(id) as Intl.NumberFormat | undefined;
  if (f === undefined) {
    f = new Intl.NumberFormat(lang, {
      style: 'currency',
      currency,
      currencyDisplay: 'symbol',
      maximumFractionDigits: 20,
    });
    cache.set(id, f);
  }
  return f;
}

let currencies: Set<string> | undefined;
/** Whether Intl knows `code` as an ISO 4217 currency (and so its minor units). */
export function isoCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

/**
 * An amount as the payer reads it: a fiat currency in the payer's language with its minor units
 * ("€25.50" in English, "25,50 €" in German), anything else (a crypto asset) as its exact text and
 * symbol.
 */
export function formatAmount(lang: Lang, amount: string, currency: string, fiat = true): string {
  if (!fiat || !isoCurrency(currency)) return `${amount} ${currency}`;
  return numberFormat(lang, currency).format(amount as unknown as number);
}

function dateFormat(lang: Lang, kind: 'date' | 'dateTime' | 'time'): Intl.DateTimeFormat {
  const id = `d\u0000${lang}\u0000${kind}`;
  let f = cache.get(id) as Intl.DateTimeFormat | undefined;
  if (f === undefined) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'date'
        ? { dateStyle: 'long', timeZone: 'UTC' }
        : kind === 'time'
          ? { timeStyle: 'short', timeZone: 'UTC' }
          : { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' };
    f = new Intl.DateTimeFormat(lang, options);
    cache.set(id, f);
  }
  return f;
}

/** A day in the payer's language (UTC: the server's books are in UTC), e.g. "29 November 2026". */
export const formatDate = (lang: Lang, iso: string): string => dateFormat(lang, 'date').format(new Date(iso));
/** A day and time in the payer's language, in UTC (the caller says "UTC" where the reader needs it). */
export const formatDateTime = (lang: Lang, iso: string): string => dateFormat(lang, 'dateTime').format(new Date(iso));
/** A clock time in the payer's language, in UTC. */
export const formatTime = (lang: Lang, iso: string): string => dateFormat(lang, 'time').format(new Date(iso));
