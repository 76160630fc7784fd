/**
 * How the page writes money for the payer. Fiat amounts (the checkout's currency when it is not a
 * crypto asset) take the currency's minor units and the payer's locale through Intl.NumberFormat:
 * a checkout of 25.50 EUR reads "€25.50" in English and "25,50 €" in German, never "25.5 EUR".
 * The amount is handed to Intl as decimal text, which formats it exactly (no float), and no
 * digit the merchant asked for is dropped (maximumFractionDigits 20). Crypto amounts are not
 * formatted at all: the exact text the payer must send, unrounded.
 */

const FALLBACK = 'en';
/** At most this many Accept-Language entries are looked at (the header is the client's to fill). */
const MAX_RANGES = 12;

/**
 * The payer's locale: the first language of `Accept-Language` (by q-value, then order) that this
 * runtime's Intl supports, else English.
 */
export function payerLocale(acceptLanguage: string | string[] | undefined): string {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const ranges = header
    .slice(0, 512)
    .split(',')
    .slice(0, MAX_RANGES)
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((r) => r.q > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(r.tag))
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const r of ranges) {
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf(r.tag);
      if (supported !== undefined) return supported;
    } catch {
      // A tag Intl refuses (structurally invalid): try the next one.
    }
  }
  return FALLBACK;
}

/** Whether Intl knows `code` as an ISO 4217 currency (and so its minor units). */
function isoCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat(FALLBACK, { style: 'currency', currency: code });
    return Intl.supportedValuesOf('currency').includes(code);
  } catch {
    return false;
  }
}

/**
 * The checkout amount as the payer reads it: a fiat currency in the payer's locale with its minor
 * units, anything else (a crypto asset) as its exact text and symbol.
 */
export function formatCheckoutAmount(amount: string, currency: string, fiat: boolean, locale: string): string {
  if (!fiat || !isoCurrency(currency)) return `${amount} ${currency}`;
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'symbol',
    maximumFractionDigits: 20,
  });
  // Decimal text, not a number: Intl formats it exactly (ES2023 Intl.NumberFormat v3).
  return format.format(amount as unknown as number);
}
