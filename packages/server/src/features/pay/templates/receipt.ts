import type { PageSpeech } from '../../../http/payer-language.js';
import { ENGLISH, type Speech } from '../../../i18n/messages.js';
import { html, ltr, type SafeHtml } from '../html.js';
import { isDataImage, logoOrigin } from '../../../http/page-headers.js';
import type { ReceiptPayment, ReceiptView } from '../receipt-view.js';
import {
  htmlMessage,
  isolated,
  lineText,
  money,
  networkText,
  paidLabel,
  priced,
  rateText,
  receiptDate,
  referenceHtml,
  sellerLines,
  taxed,
  taxText,
  totalLabel,
} from '../receipt-text.js';
import { layout } from './layout.js';

const txLink = (p: { txHash: string; explorerUrl: string | null }, s: Speech) => {
  const tx = html`<code class="tx" dir="ltr">${p.txHash}</code>`;
  return p.explorerUrl === null
    ? tx
    : html`<a href="${p.explorerUrl}" rel="noopener noreferrer" target="_blank">${tx}<span class="vh"> ${s.t('receipt.opensExplorer')}</span></a>`;
};

const payment = (p: ReceiptPayment, s: Speech) =>
  html`<li>${htmlMessage(s, 'receipt.paymentLine', {}, { amount: html`<span class="num">${ltr(money(p.amount, p.asset))}</span>`, chain: ltr(p.chain), tx: txLink(p, s) })}</li>`;

const refund = (f: ReceiptView['refunds'][number], s: Speech) => {
  const parts = { amount: html`<span class="num">${ltr(money(f.amount, f.asset))}</span>`, chain: ltr(f.chain) };
  return html`<li>${
    f.txHash === ''
      ? htmlMessage(s, 'receipt.refundLine', { date: receiptDate(f.at, s) }, parts)
      : htmlMessage(s, 'receipt.refundLineTx', { date: receiptDate(f.at, s) }, { ...parts, tx: txLink(f, s) })
  }</li>`;
};

/**
 * The items bought (quantity × unit price under each description, so the table keeps three or
 * four columns at 360 px; a Tax column when a line is taxed), the totals under them, the amount paid.
 */
function itemsTable(r: ReceiptView, s: Speech): SafeHtml {
  const tax = taxed(r);
  const span = tax ? 2 : 1;
  const amount = (v: string) => ltr(priced(r, v, s));
  return html`<table>
<thead><tr><th scope="col">${s.t('receipt.item')}</th>${tax && html`<th scope="col" class="n">${s.t('receipt.tax')}</th>`}<th scope="col" class="n">${s.t('receipt.amount')}</th></tr></thead>
<tbody>
${r.items.lines.map((l) => html`<tr><td>${lineText(l, s)}<span class="unit">${ltr(l.quantity)} × ${amount(l.unitAmount)}</span></td>${tax && html`<td class="n">${isolated(taxText(l, r.currency, s, r.fiatCurrency))}</td>`}<td class="n">${amount(l.amount)}</td></tr>`)}
</tbody>
<tfoot>
${r.items.totals.map((t) => html`<tr><th scope="row" colspan="${span}">${totalLabel(t, s)}</th><td class="n">${amount(t.amount)}</td></tr>`)}
<tr><th scope="row" colspan="${span}">${paidLabel(r, s)}</th><td class="n"><strong>${amount(r.amount)}</strong></td></tr>
</tfoot>
</table>`;
}

function paidWith(r: ReceiptView, s: Speech): SafeHtml | null {
  if (r.paidWith === null) return null;
  const amount = html`<span class="num">${ltr(money(r.paidWith.amount, r.paidWith.asset))}</span>`;
  return html`<section class="card" aria-labelledby="paid-title">
<h2 id="paid-title">${s.t('receipt.paidWith')}</h2>
<p>${htmlMessage(s, 'receipt.paidOn', {}, { amount, network: ltr(networkText(r.paidWith)) })}</p>
<p>${htmlMessage(s, 'receipt.rate', {}, { rate: html`<span class="num">${ltr(rateText(r) ?? '')}</span>` })}</p>
<ul class="payments">${r.payments.map((p) => payment(p, s))}</ul>
</section>`;
}

/** The receipt of a settled checkout (spec/commerce.md, "Receipts"): a document, no script, in the payer's language. */
export function receiptPage(r: ReceiptView, sandbox: boolean, speech: PageSpeech | Speech = ENGLISH): SafeHtml {
  const s = speech;
  const logo =
    logoOrigin(r.logoUrl) !== null || isDataImage(r.logoUrl)
      ? html`<img class="logo" src="${r.logoUrl}" alt="${r.merchantName}" height="48">`
      : null;
  const reference = referenceHtml(r, s);
  return layout({
    title: s.t('receipt.pageTitle', { number: r.receiptNumber, merchant: r.merchantName }),
    sandbox,
    status: 'settled',
    script: false,
    speech,
    brand: r.brand,
    body: html`<main class="receipt">
<header class="card">
${logo}
<p class="merchant">${r.merchantName}</p>
${sellerLines(r, s).map((l) => html`<p class="seller">${l}</p>`)}
</header>
<section class="card" aria-labelledby="receipt-title">
<h1 id="receipt-title">${s.t('receipt.title')}</h1>
<dl class="facts">
<dt>${s.t('receipt.number')}</dt><dd data-receipt-number>${ltr(r.receiptNumber)}</dd>
<dt>${s.t('receipt.datePaid')}</dt><dd>${receiptDate(r.paidAt, s)}</dd>
${reference !== null && html`<dt>${s.t('receipt.paymentFor')}</dt><dd data-receipt-reference>${reference}</dd>`}
</dl>
<h2>${s.t('receipt.items')}</h2>
${itemsTable(r, s)}
</section>
${paidWith(r, s)}
${
  r.refunds.length > 0 &&
  html`<section class="card" aria-labelledby="refunds-title">
<h2 id="refunds-title">${s.t('receipt.refunds')}</h2>
<ul class="payments">${r.refunds.map((f) => refund(f, s))}</ul>
</section>`
}
<p class="foot"><a href="/pay/${r.checkoutId}/receipt.pdf?lang=${s.lang}" download="receipt-${r.receiptNumber}.pdf">${s.t('receipt.downloadPdf')}</a></p>
</main>`,
  });
}
