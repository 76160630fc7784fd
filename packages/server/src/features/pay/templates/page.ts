import type { PageSpeech } from '../../../http/payer-language.js';
import { formatAmount, formatTime, isoCurrency } from '../../../i18n/format.js';
import type { Speech } from '../../../i18n/messages.js';
import { isDataImage, logoOrigin } from '../../../http/page-headers.js';
import { html, type SafeHtml } from '../html.js';
import { chosenOption, PAYABLE, type PayOption, type PayPayment, type PayView } from '../pay-view.js';
import { exact, sentenceGap, stateCopy } from '../state-copy.js';
import { layout } from './layout.js';
import { slotted, template } from './slots.js';

export interface PageInput {
  view: PayView;
  /** `?option=` of the request. */
  option: string | undefined;
  sandbox: boolean;
  /** Server clock (ISO 8601), so the countdown runs on the server's time, not the phone's. */
  now: string;
  /** The payer's language (http/payer-language.ts): every word, the amount's format, the picker. */
  speech: PageSpeech | Speech;
}

const networkName = (o: PayOption) => (o.network === o.chain ? o.chain : `${o.network} (${o.chain})`);
const optionLabel = (s: Speech, o: PayOption) =>
  s.t('pay.optionLabel', { asset: exact(s, o.asset), network: exact(s, networkName(o)) });
const qrPath = (v: PayView, o: PayOption) => `/pay/${v.id}/qr.svg?option=${o.key}`;
const qrAlt = (s: Speech, o: PayOption) =>
  s.t('pay.qrAlt', { amount: exact(s, o.remaining), asset: exact(s, o.asset), address: exact(s, o.address) });

/** A copy button: the visible word first (the script swaps it for "Copied"), then what it copies for screen readers. */
const copyButton = (s: Speech, value: string, rest: string, amount: boolean) =>
  html`<button type="button" data-copy="${value}"${amount && html` data-copy-amount`}>${s.t('pay.copy')}<span class="vh"> ${rest}</span></button>`;

/**
 * One network's payment details. What a payer needs first (the amount, the address and their
 * copy buttons) comes first, so it is on the first screen of a 360×740 phone; the QR code and the
 * wallet link follow (beside them on a wide screen). The wallet link exists only where the chain
 * has a payment URI scheme. Amounts and addresses read left to right in every language.
 */
function optionPanel(s: Speech, v: PayView, o: PayOption, shown: boolean, several: boolean): SafeHtml {
  return html`<div class="card option" id="option-${o.key}" data-option="${o.key}"${shown ? '' : html` hidden`}>
<div class="details">
<h3 class="network">${optionLabel(s, o)}${several && html` <a class="change" href="#network">${s.t('pay.changeNetwork')}</a>`}</h3>
<p class="label">${s.t('pay.sendExactly')}</p>
<div class="row"><p class="big"><span dir="ltr"><span data-remaining>${o.remaining}</span> ${o.asset}</span></p>
${copyButton(s, o.remaining, s.t('pay.copyAmountRest'), true)}</div>
<p class="label">${s.t('pay.toAddress', { network: exact(s, o.network), chain: exact(s, o.chain) })}</p>
<p class="address"><code>${o.address}</code></p>
<div class="row">${copyButton(s, o.address, s.t('pay.copyAddressRest'), false)}</div>
</div>
<div class="scan">
<img class="qr" data-qr="${qrPath(v, o)}" data-v="${o.remaining}" src="${qrPath(v, o)}&amp;v=${o.remaining}" width="240" height="240" alt="${qrAlt(s, o)}"${shown ? '' : html` loading="lazy"`}>
${o.walletUri !== null && html`<a class="wallet" data-uri href="${o.walletUri}">${s.t('pay.openWallet')}</a>`}
</div>
<p class="hint">${slotted(s, 'pay.receivedSoFar', { amount: html`<span data-received dir="ltr">${o.received}</span>` }, { asset: exact(s, o.asset) })}${sentenceGap(s)}${s.t('pay.networkWarning', { asset: exact(s, o.asset), network: exact(s, o.network) })}</p>
</div>`;
}

/** A payment as listed: amount, chain, and its transaction (linked to the operator's explorer when there is one). */
export function paymentItem(s: Speech, p: PayPayment): SafeHtml {
  const tx = html`<code class="tx">${p.txHash}</code>`;
  return html`<li>${slotted(
    s,
    'pay.paymentItem',
    {
      amount: html`<span class="num" dir="ltr">${p.amount} ${p.asset}</span>`,
      tx:
        p.explorerUrl === null
          ? tx
          : html`<a href="${p.explorerUrl}" rel="noopener noreferrer" target="_blank">${tx}<span class="vh"> ${s.t('pay.opensExplorer')}</span></a>`,
    },
    { chain: exact(s, p.chain) },
  )}</li>`;
}

/**
 * The merchant's logo, when it set one: escaped like every value, and only an https or a
 * data:image URL (checked when set, and here again); the page's CSP allows exactly its origin.
 */
function logo(v: PayView): SafeHtml | null {
  if (logoOrigin(v.logoUrl) === null && !isDataImage(v.logoUrl)) return null;
  return html`<img class="logo" src="${v.logoUrl}" alt="${v.merchantName}" height="48">`;
}

/** m:ss (h:mm:ss past an hour) from `now` to `until`; 0:00 once past. */
export function timeLeft(until: string, now: string): string {
  const s = Math.max(0, Math.floor((Date.parse(until) - Date.parse(now)) / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const m = Math.floor(s / 60) % 60;
  const h = Math.floor(s / 3600);
  return `${h > 0 ? `${h}:${pad(m)}` : m}:${pad(s % 60)}`;
}

/**
 * The receipt link, there from the start so the script can show it when the checkout settles
 * while the page is open; before that it is hidden and has no href (there is nothing to open yet).
 */
function receiptLink(s: Speech, v: PayView): SafeHtml {
  if (v.receiptNumber === null) return html`<p data-receipt hidden><a data-receipt-link></a></p>`;
  return html`<p data-receipt><a data-receipt-link href="/pay/${v.id}/receipt">${s.t('pay.viewReceipt', { number: exact(s, v.receiptNumber) })}</a></p>`;
}

/**
 * What the script writes in the browser, in the page's language: the words it needs, as data-*
 * attributes of <main> (the CSP allows no inline script), with `%name%` where it puts a value.
 */
const scriptWords = (s: Speech) =>
  html` data-t-copied="${s.t('pay.copied')}" data-t-copied-say="${template(s, 'pay.copiedAnnounce', ['value'])}" data-t-receipt="${template(s, 'pay.viewReceipt', ['number'])}" data-t-qr="${template(s, 'pay.qrAlt', ['amount', 'asset', 'address'])}" data-t-payment="${template(s, 'pay.paymentItem', ['amount', 'chain', 'tx'])}" data-t-explorer="${s.t('pay.opensExplorer')}"`;

function timer(s: Speech, v: PayView, now: string): SafeHtml {
  const time = html`<time datetime="${v.expiresAt}" data-expires="${v.expiresAt}">${timeLeft(v.expiresAt, now)}</time>`;
  return html`<p class="timer" data-payable>${slotted(s, 'pay.timeLeft', { time }, { clock: formatTime(s.lang, v.expiresAt) })}</p>`;
}

/** The hosted payment page (spec/checkout.md, "Hosted payment page"), complete without JavaScript. */
export function paymentPage(p: PageInput): SafeHtml {
  const { view: v, speech: s } = p;
  const copy = stateCopy(s, v);
  const payable = PAYABLE.has(v.status);
  const chosen = chosenOption(v, p.option);
  const several = v.options.length > 1;
  const fiat = v.fiatCurrency && isoCurrency(v.currency);
  // Fiat as Intl writes it in the payer's language; a crypto amount is exact text, kept left to right.
  const amount = fiat ? formatAmount(s.lang, v.amount, v.currency) : exact(s, `${v.amount} ${v.currency}`);
  return layout({
    title: s.t('pay.pageTitle', { merchant: v.merchantName }),
    sandbox: p.sandbox,
    status: v.status,
    speech: s,
    brand: v.brand,
    body: html`<main id="pay" data-status-url="/pay/${v.id}/status?lang=${s.lang}" data-now="${p.now}"${scriptWords(s)}>
<header class="card head">
${logo(v)}
<p class="to">${s.t('pay.paymentTo')}</p>
<h1>${v.merchantName}</h1>
${v.description !== null && v.description !== '' && html`<p class="desc">${v.description}</p>`}
<p class="amount" data-amount>${amount}</p>
</header>
<section class="card state" aria-live="polite" aria-atomic="true" aria-labelledby="state-title">
<h2 id="state-title" data-state-title>${copy.title}</h2>
<p data-state-message>${copy.message}</p>
${payable && timer(s, v, p.now)}
<p${copy.link === null ? html` hidden` : ''}><a data-state-link href="${copy.link?.href ?? '#'}">${copy.link?.text ?? ''}</a></p>
${receiptLink(s, v)}
</section>
${
  payable &&
  html`<section data-payable aria-label="${s.t('pay.detailsLabel')}">
${v.options.map((o) => optionPanel(s, v, o, o === chosen, several))}
${
  several &&
  html`<div id="network"><h2>${s.t('pay.networkHeading')}</h2>
<ul class="choices">${v.options.map((o) => html`<li><a href="?option=${o.key}" data-option-link="${o.key}"${o === chosen ? html` aria-current="true"` : ''}>${optionLabel(s, o)}</a></li>`)}</ul></div>`
}
</section>`
}
<section class="card payments" data-payments aria-labelledby="payments-title"${v.payments.length === 0 ? html` hidden` : ''}>
<h2 id="payments-title">${s.t('pay.paymentsReceived')}</h2>
<ul data-payment-list>${v.payments.map((x) => paymentItem(s, x))}</ul>
</section>
<noscript><p class="hint">${s.t('pay.noscript')}</p></noscript>
<p class="vh" aria-live="polite" data-announce></p>
</main>
<footer>${s.t('pay.footer', { id: v.id })}${sentenceGap(s)}<span data-footer>${copy.footer}</span></footer>`,
  });
}
