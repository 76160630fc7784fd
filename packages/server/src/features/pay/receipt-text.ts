import { formatAmount, formatDateTime } from '../../i18n/format.js';
import { ENGLISH, type MessageKey, type MessageValues, type Speech } from '../../i18n/messages.js';
import { html, ltr, type SafeHtml } from './html.js';
import type { ReceiptLine, ReceiptTotal } from './receipt-lines.js';
import type { ReceiptView } from './receipt-view.js';

/**
 * The words and figures a receipt shows, written once for the HTML page and the PDF (and the
 * receipt mail) so they say the same thing, in the payer's language (`s`, English when left out).
 * Crypto amounts are the exact decimal text with the asset code; fiat amounts are formatted for the
 * language with every digit kept (i18n/format.ts); dates are UTC, in words.
 */
export const receiptDate = (iso: string, s: Speech = ENGLISH) => `${formatDateTime(s.lang, iso)} UTC`;

/** An exact amount of an asset or a non-ISO code: `0.00123 BTC`, never rounded. */
export const money = (amount: string, code: string) => `${amount} ${code}`;

/** An amount in the receipt's own currency, as the payer's language writes it (`€25.50`, `25,50 €`). */
export const priced = (r: Pick<ReceiptView, 'currency' | 'fiatCurrency'>, amount: string, s: Speech = ENGLISH) =>
  formatAmount(s.lang, amount, r.currency, r.fiatCurrency);

/** `1 EUR = 1.0832 USDT`: the only place a payer sees the rate (codes and exact figures, the same in every language). */
export const rateText = (r: ReceiptView) =>
  r.paidWith === null ? null : `1 ${r.currency} = ${r.paidWith.rate} ${r.paidWith.asset}`;

export const networkText = (p: { chain: string; network: string }) =>
  p.network === p.chain ? p.chain : `${p.network} (${p.chain})`;

/** The seller block's lines under the name: legal name, address (its lines), tax id, support email. */
export function sellerLines(r: ReceiptView, s: Speech = ENGLISH): string[] {
  const seller = r.seller;
  return [
    seller.legalName,
    ...(seller.address ?? '').split(/\r?\n/),
    seller.taxId === null ? null : s.t('receipt.taxId', { taxId: seller.taxId }),
    seller.supportEmail,
  ].filter((l): l is string => l !== null && l.trim() !== '');
}

export const sandboxNote = (s: Speech = ENGLISH) => s.t('receipt.sandbox');

/** Whether any line is taxed: the items then show a Tax column. */
export const taxed = (r: ReceiptView) => r.items.lines.some((l) => l.tax !== null);

/** A line's tax: `€11.39 (19%)`, or an empty cell when untaxed (`currency` is the receipt's). */
export const taxText = (l: ReceiptLine, currency: string, s: Speech = ENGLISH, fiat = true): string =>
  l.tax === null
    ? ''
    : s.t('receipt.taxRate', { amount: formatAmount(s.lang, l.tax.amount, currency, fiat), percent: l.tax.percent });

const TOTAL_KEYS: Record<NonNullable<ReceiptTotal['kind']>, MessageKey> = {
  subtotal: 'receipt.subtotal',
  tax: 'receipt.tax',
  invoiceTotal: 'receipt.invoiceTotal',
};

/** A figure's label under the items (a contributor's kind in the payer's language, else its own label). */
export const totalLabel = (t: ReceiptTotal, s: Speech = ENGLISH) =>
  t.kind === undefined ? t.label : s.t(TOTAL_KEYS[t.kind]);

/** The label of the amount this checkout paid: `Total`, or `This payment` for part of a larger sum. */
export function paidLabel(r: ReceiptView, s: Speech = ENGLISH): string {
  if (r.items.paid === 'part') return s.t('receipt.thisPayment');
  // A contributor that says only `Total` (a payment link's) means the whole sum too.
  return r.items.paid === 'total' || r.items.paidLabel === 'Total' ? s.t('receipt.total') : r.items.paidLabel;
}

/** What the payment settles, in words, or null (`Invoice INV-000012`). */
export function referenceText(r: ReceiptView, s: Speech = ENGLISH): string | null {
  const inv = r.items.invoice;
  if (inv === undefined || inv === null) return r.items.reference;
  return inv.partOf === null
    ? s.t('receipt.invoiceRef', { number: inv.number })
    : s.t('receipt.invoicePartRef', { number: inv.number, total: priced(r, inv.partOf, s) });
}

/** The reference for a page: the invoice number and total kept left to right on a right-to-left page. */
export function referenceHtml(r: ReceiptView, s: Speech = ENGLISH): SafeHtml | null {
  const inv = r.items.invoice;
  if (inv === undefined || inv === null) return r.items.reference === null ? null : isolated(r.items.reference);
  return inv.partOf === null
    ? htmlMessage(s, 'receipt.invoiceRef', {}, { number: ltr(inv.number) })
    : htmlMessage(s, 'receipt.invoicePartRef', {}, { number: ltr(inv.number), total: ltr(priced(r, inv.partOf, s)) });
}

/** A line's description; a checkout with none is `Payment`. */
export const lineText = (l: ReceiptLine, s: Speech = ENGLISH) =>
  l.description === '' ? s.t('receipt.payment') : l.description;

/**
 * A message with HTML in some of its placeholders (a link, a left-to-right isolated figure): the
 * message is formatted with markers where they go, its text escaped, and the pieces put in.
 */
export function htmlMessage(
  s: Speech,
  key: MessageKey,
  values: MessageValues,
  parts: Record<string, SafeHtml>,
): SafeHtml {
  const names = Object.keys(parts);
  const marked = s.t(key, { ...values, ...Object.fromEntries(names.map((n, i) => [n, `\u0000${i}\u0000`])) });
  const pieces = marked.split('\u0000');
  return html`${pieces.map((p, i) => (i % 2 === 1 ? (parts[names[Number(p)]!] ?? '') : p))}`;
}

/** A figure or code that reads left to right in any page direction (an amount, a hash, a number). */
/** A figure formatted for the language, isolated so an Arabic page does not reorder it. */
export const isolated = (text: string) => html`<bdi>${text}</bdi>`;
