import { formatCheckoutAmount } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { chosenOption, PAYABLE, type PayOption, type PayPayment, type PayView } from '../pay-view.js';
import { stateCopy } from '../state-copy.js';
import { layout } from './layout.js';
import { isDataImage, logoOrigin } from '../../../http/page-headers.js';

export interface PageInput {
  view: PayView;
  /** `?option=` of the request. */
  option: string | undefined;
  sandbox: boolean;
  /** Server clock (ISO 8601), so the countdown runs on the server's time, not the phone's. */
  now: string;
  /** The payer's locale (Accept-Language, else English): how a fiat amount is written. */
  locale: string;
}

const optionLabel = (o: PayOption) => `${o.asset} on ${o.network === o.chain ? o.chain : `${o.network} (${o.chain})`}`;
const qrPath = (v: PayView, o: PayOption) => `/pay/${v.id}/qr.svg?option=${o.key}`;
const qrAlt = (o: PayOption) => `QR code: send ${o.remaining} ${o.asset} to ${o.address}`;

/**
 * One network's payment details. What a payer needs first (the amount, the address and their
 * copy buttons) comes first, so it is on the first screen of a 360×740 phone; the QR code and the
 * wallet link follow (beside them on a wide screen). The wallet link exists only where the chain
 * has a payment URI scheme.
 */
function optionPanel(v: PayView, o: PayOption, shown: boolean, several: boolean): SafeHtml {
  return html`<div class="card option" id="option-${o.key}" data-option="${o.key}"${shown ? '' : html` hidden`}>
<div class="details">
<h3 class="network">${optionLabel(o)}${several && html` <a class="change" href="#network">Change network</a>`}</h3>
<p class="label">Send exactly</p>
<div class="row"><p class="big"><span data-remaining>${o.remaining}</span> ${o.asset}</p>
<button type="button" data-copy="${o.remaining}" data-copy-amount>Copy<span class="vh"> amount</span></button></div>
<p class="label">To this ${o.network} address on ${o.chain}</p>
<p class="address"><code>${o.address}</code></p>
<div class="row"><button type="button" data-copy="${o.address}">Copy<span class="vh"> address</span></button></div>
</div>
<div class="scan">
<img class="qr" data-qr="${qrPath(v, o)}" data-v="${o.remaining}" src="${qrPath(v, o)}&amp;v=${o.remaining}" width="240" height="240" alt="${qrAlt(o)}"${shown ? '' : html` loading="lazy"`}>
${o.walletUri !== null && html`<a class="wallet" data-uri href="${o.walletUri}">Open in a wallet app</a>`}
</div>
<p class="hint">Received so far: <span data-received>${o.received}</span> ${o.asset}. Send only ${o.asset} on ${o.network}; other assets or networks are lost or delayed.</p>
</div>`;
}

/** A payment as listed: amount, chain, and its transaction (linked to the operator's explorer when there is one). */
export function paymentItem(p: PayPayment): SafeHtml {
  const tx = html`<code class="tx">${p.txHash}</code>`;
  return html`<li><span class="num">${p.amount} ${p.asset}</span> on ${p.chain}: transaction ${
    p.explorerUrl === null
      ? tx
      : html`<a href="${p.explorerUrl}" rel="noopener noreferrer" target="_blank">${tx}<span class="vh"> (opens a block explorer)</span></a>`
  }</li>`;
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

const clockTime = (iso: string) => `${iso.slice(11, 19)} UTC`;

/** The hosted payment page (spec/checkout.md, "Hosted payment page"), complete without JavaScript. */
export function paymentPage(p: PageInput): SafeHtml {
  const { view: v } = p;
  const copy = stateCopy(v);
  const payable = PAYABLE.has(v.status);
  const chosen = chosenOption(v, p.option);
  const several = v.options.length > 1;
  return layout({
    title: `Pay ${v.merchantName} · hostpay`,
    sandbox: p.sandbox,
    status: v.status,
    body: html`<main id="pay" data-status-url="/pay/${v.id}/status" data-now="${p.now}">
<header class="card head">
${logo(v)}
<p class="to">Payment to</p>
<h1>${v.merchantName}</h1>
${v.description !== null && v.description !== '' && html`<p class="desc">${v.description}</p>`}
<p class="amount" data-amount>${formatCheckoutAmount(v.amount, v.currency, v.fiatCurrency, p.locale)}</p>
</header>
<section class="card state" aria-live="polite" aria-atomic="true" aria-labelledby="state-title">
<h2 id="state-title" data-state-title>${copy.title}</h2>
<p data-state-message>${copy.message}</p>
${payable && html`<p class="timer" data-payable>Time left: <time datetime="${v.expiresAt}" data-expires="${v.expiresAt}">${timeLeft(v.expiresAt, p.now)}</time> (until ${clockTime(v.expiresAt)})</p>`}
<p${copy.link === null ? html` hidden` : ''}><a data-state-link href="${copy.link?.href ?? '#'}">${copy.link?.text ?? ''}</a></p>
</section>
${
  payable &&
  html`<section data-payable aria-label="Payment details">
${v.options.map((o) => optionPanel(v, o, o === chosen, several))}
${
  several &&
  html`<div id="network"><h2>Network</h2>
<ul class="choices">${v.options.map((o) => html`<li><a href="?option=${o.key}" data-option-link="${o.key}"${o === chosen ? html` aria-current="true"` : ''}>${optionLabel(o)}</a></li>`)}</ul></div>`
}
</section>`
}
<section class="card payments" data-payments aria-labelledby="payments-title"${v.payments.length === 0 ? html` hidden` : ''}>
<h2 id="payments-title">Payments received</h2>
<ul data-payment-list>${v.payments.map(paymentItem)}</ul>
</section>
<noscript><p class="hint">Reload this page to see whether your payment has arrived.</p></noscript>
<p class="vh" aria-live="polite" data-announce></p>
</main>
<footer>Payment request ${v.id}, processed by hostpay. <span data-footer>${copy.footer}</span></footer>`,
  });
}
