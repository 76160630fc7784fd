import type { PageSpeech } from '../../http/payer-language.js';
import { isDataImage, logoOrigin } from '../../http/page-headers.js';
import { formatAmount, formatDate } from '../../i18n/format.js';
import { ENGLISH, type Speech } from '../../i18n/messages.js';
import { html, type SafeHtml } from '../pay/html.js';
import { ltr } from '../pay/html.js';
import { htmlMessage, isolated } from '../pay/receipt-text.js';
import { layout } from '../pay/templates/layout.js';
import type { InvoiceDocument } from './public.js';
import { statusText } from './view.js';
import { invoicePagePath } from './token.js';

interface PageFigures {
  number: string;
  status: string;
  currency: string;
  customer: { name: string | null; email: string | null };
  lineItems: { description: string; quantity: unknown; unitAmount: unknown; taxPercent: unknown; amount: unknown }[];
  subtotal: unknown;
  tax: unknown;
  total: unknown;
  amountPaid: unknown;
  amountDue: unknown;
  dueAt: string | null;
  finalizedAt: string | null;
  memo: string | null;
}

const figures = (d: InvoiceDocument) => d.invoice as unknown as PageFigures;
/** An amount of the invoice's currency, formatted for the payer's language, kept left to right on a right-to-left page. */
const money = (s: Speech, v: unknown, currency: string) => ltr(formatAmount(s.lang, String(v), currency));

/** The merchant's logo, when it set an https or small data: one (the CSP allows exactly that). */
function logo(d: InvoiceDocument): SafeHtml | null {
  const url = d.seller.logoUrl;
  if (logoOrigin(url) === null && !isDataImage(url)) return null;
  return html`<img class="logo" src="${url}" alt="${d.seller.name}" height="48">`;
}

function seller(d: InvoiceDocument, s: Speech): SafeHtml {
  const x = d.seller;
  return html`<section class="card inv" aria-labelledby="from-title">
<h2 id="from-title">${s.t('invoice.seller')}</h2>
<p>${x.legalName ?? x.name}</p>
${x.address !== null && html`<p>${x.address}</p>`}
${x.taxId !== null && html`<p>${htmlMessage(s, 'invoice.taxId', {}, { taxId: ltr(x.taxId) })}</p>`}
${x.supportEmail !== null && html`<p>${htmlMessage(s, 'invoice.contact', {}, { email: ltr(x.supportEmail) })}</p>`}
</section>`;
}

/**
 * The lines (quantity × unit price under each description, so the table keeps two or three
 * columns at 360 px in every language; a Tax column when a line is taxed), the totals under them.
 */
function lines(d: InvoiceDocument, s: Speech): SafeHtml {
  const i = figures(d);
  const c = i.currency;
  const taxed = i.lineItems.some((l) => l.taxPercent !== null);
  const span = taxed ? 2 : 1;
  const row = (key: Parameters<Speech['t']>[0], v: unknown) =>
    html`<tr><th scope="row" colspan="${span}">${s.t(key)}</th><td class="n">${money(s, v, c)}</td></tr>`;
  const tax = (l: PageFigures['lineItems'][number]) =>
    html`<td class="n">${l.taxPercent === null ? '—' : isolated(s.t('invoice.taxRate', { percent: String(l.taxPercent) }))}</td>`;
  return html`<section class="card inv" aria-labelledby="lines-title">
<h2 id="lines-title">${s.t('invoice.items')}</h2>
<table>
<thead><tr><th scope="col">${s.t('invoice.description')}</th>${taxed && html`<th scope="col" class="n">${s.t('invoice.tax')}</th>`}<th scope="col" class="n">${s.t('invoice.amount')}</th></tr></thead>
<tbody>
${i.lineItems.map(
  (l) =>
    html`<tr><td>${l.description}<span class="unit">${ltr(String(l.quantity))} × ${money(s, l.unitAmount, c)}</span></td>${taxed && tax(l)}<td class="n">${money(s, l.amount, c)}</td></tr>`,
)}
</tbody>
<tfoot>
${row('invoice.subtotal', i.subtotal)}
${row('invoice.tax', i.tax)}
${row('invoice.total', i.total)}
${row('invoice.amountPaid', i.amountPaid)}
${row('invoice.amountDue', i.amountDue)}
</tfoot>
</table>
</section>`;
}

const stateCard = (title: string, text: SafeHtml | string) =>
  html`<section class="card state" aria-labelledby="state-title"><h2 id="state-title">${title}</h2><p>${text}</p></section>`;

/** What the payer can do: pay what is due (saying what is already paid, and when it was due), or read why not. */
function action(d: InvoiceDocument, token: string, nonce: string, s: Speech, overdue: boolean): SafeHtml {
  const i = figures(d);
  if (i.status === 'void')
    return stateCard(s.t('invoice.voidTitle'), s.t('invoice.voidText', { merchant: d.seller.name }));
  if (d.payable) {
    const partial =
      i.status === 'partially_paid' &&
      htmlMessage(
        s,
        'invoice.partialText',
        {},
        { paid: money(s, i.amountPaid, i.currency), due: money(s, i.amountDue, i.currency) },
      );
    return html`<form class="card inv" method="post" action="${invoicePagePath(token)}">
${overdue && i.dueAt !== null && html`<p class="hint"><strong>${s.t('invoice.overdue')}</strong> · ${s.t('invoice.overdueText', { date: formatDate(s.lang, i.dueAt) })}</p>`}
${partial && html`<p>${partial}</p>`}
<input type="hidden" name="nonce" value="${nonce}">
<button type="submit">${htmlMessage(s, 'invoice.pay', {}, { amount: money(s, i.amountDue, i.currency) })}</button>
<p class="hint">${s.t('invoice.payHint')}</p>
</form>`;
  }
  if (i.status === 'paid') return stateCard(s.t('invoice.paidTitle'), s.t('invoice.paidText'));
  return stateCard(s.t('invoice.nothingTitle'), s.t('invoice.nothingText'));
}

export interface InvoicePageInput {
  doc: InvoiceDocument;
  token: string;
  nonce: string;
  /** The payer's language (English when left out). */
  speech?: PageSpeech | Speech;
  /** Now, in ms: an invoice still due past its due date says it is overdue. */
  now?: number;
}

/** The public invoice page (spec/commerce.md): the invoice as a document, Pay while something is due. */
export function invoiceDocumentPage(p: InvoicePageInput): SafeHtml {
  const { doc } = p;
  const s = p.speech ?? ENGLISH;
  const i = figures(doc);
  const overdue = doc.payable && i.dueAt !== null && p.now !== undefined && Date.parse(i.dueAt) < p.now;
  const status = statusText(s, i.status);
  const body = html`<main>
<header class="card head">
${logo(doc)}
<p class="to">${s.t('invoice.from')}</p>
<h1>${doc.seller.name}</h1>
<p class="desc">${htmlMessage(s, 'invoice.summary', { status }, { number: ltr(i.number) })}</p>
</header>
${action(doc, p.token, p.nonce, s, overdue)}
<section class="card inv" aria-labelledby="facts-title">
<h2 id="facts-title">${s.t('invoice.details')}</h2>
<dl>
<dt>${s.t('invoice.number')}</dt><dd>${ltr(i.number)}</dd>
<dt>${s.t('invoice.issued')}</dt><dd>${i.finalizedAt === null ? '' : formatDate(s.lang, i.finalizedAt)}</dd>
${i.dueAt !== null && html`<dt>${s.t('invoice.due')}</dt><dd>${formatDate(s.lang, i.dueAt)}${overdue && html` · <strong>${s.t('invoice.overdue')}</strong>`}</dd>`}
${i.customer.name !== null && html`<dt>${s.t('invoice.billTo')}</dt><dd>${i.customer.name}</dd>`}
${i.customer.email !== null && html`<dt>${s.t('invoice.email')}</dt><dd>${ltr(i.customer.email)}</dd>`}
</dl>
${i.memo !== null && html`<p>${i.memo}</p>`}
<p><a href="${invoicePagePath(p.token)}/pdf?lang=${s.lang}">${s.t('invoice.downloadPdf')}</a></p>
</section>
${lines(doc, s)}
${seller(doc, s)}
</main>
<footer>${htmlMessage(s, 'invoice.footer', { merchant: doc.seller.name }, { number: ltr(i.number) })}</footer>`;
  return layout({
    title: s.t('invoice.pageTitle', { number: i.number, merchant: doc.seller.name }),
    sandbox: doc.sandbox,
    status: i.status === 'paid' ? 'settled' : i.status === 'void' ? 'invalid' : 'open',
    body,
    script: false,
    speech: s,
    brand: doc.seller.brand,
  });
}
