import { findFamily } from '../../chain-families/index.js';
import { html, type SafeHtml } from '../pay/html.js';
import { layout } from '../pay/templates/layout.js';
import { refundLinkPath } from './links.js';
import type { RefundFacts, RefundPage } from './service.js';

/**
 * What the address field says it takes, and the browser's own check of its shape (`pattern`):
 * a hint only, so a typo is caught before a round trip; the server's validator decides (checksums,
 * the network), and its refusal is shown on the page.
 */
export function addressRule(f: Pick<RefundFacts, 'family' | 'networkType'>): { hint: string; pattern: string | null } {
  return findFamily(f.family)?.addressField(f.networkType) ?? { hint: '', pattern: null };
}

const head = (f: RefundFacts, amount: string | null) => html`<header class="card head">
<p class="to">Refund from</p>
<h1>${f.merchantName}</h1>
${amount !== null && html`<p class="amount">${amount} ${f.asset}</p>`}
<p class="desc">Paid back in ${f.asset} on ${f.network === f.chainName ? f.chainName : `${f.network} (${f.chainName})`}.</p>
</header>`;

const clock = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function statePanel(title: string, message: string | SafeHtml, live = false): SafeHtml {
  return html`<section class="card state"${live ? html` aria-live="polite"` : ''} aria-labelledby="state-title">
<h2 id="state-title">${title}</h2>
<p>${message}</p>
</section>`;
}

export interface RefundPageInput {
  page: RefundPage;
  sandbox: boolean;
  token: string;
  /** The address the payer typed, written back after a refusal. */
  address?: string;
  /** The server's refusal of that address (INVALID_ADDRESS), tied to the field. */
  error?: string;
  /** The refund just requested. */
  requested?: { address: string; amount: string };
}

/** The refund link's page (spec/payouts.md, "Refunds"): one form, complete without JavaScript. */
export function refundPage(p: RefundPageInput): { status: string; body: SafeHtml; title: string } {
  const { page } = p;
  if (page.kind === 'not_found')
    return {
      status: 'invalid',
      title: 'Refund link not found',
      body: html`<main>${statePanel(
        'Refund link not found',
        'This refund link is not valid, or it was mistyped. Check the link you were given, or ask the merchant for a new one.',
      )}</main>`,
    };
  if (p.requested !== undefined)
    return {
      status: 'settled',
      title: 'Refund requested',
      body: html`<main>${head(page, p.requested.amount)}
${statePanel(
  'Refund requested',
  html`${p.requested.amount} ${page.asset} will be sent to <code class="tx">${p.requested.address}</code>. ${page.merchantName} has been told; the refund is sent once it is approved. You can close this page.`,
  true,
)}</main>`,
    };
  if (page.kind === 'used')
    return {
      status: 'invalid',
      title: 'Refund link already used',
      body: html`<main>${head(page, null)}
${statePanel('This refund link was already used', `An address was given on ${clock(page.usedAt)}; a link works once. If that was not you, contact ${page.merchantName}.`)}</main>`,
    };
  if (page.kind === 'expired')
    return {
      status: 'invalid',
      title: 'Refund link expired',
      body: html`<main>${head(page, null)}
${statePanel('This refund link has expired', `It worked until ${clock(page.expiresAt)}. Ask ${page.merchantName} for a new one.`)}</main>`,
    };
  if (page.kind === 'nothing_left')
    return {
      status: 'invalid',
      title: 'Nothing left to refund',
      body: html`<main>${head(page, null)}
${statePanel('Nothing left to refund', `This payment was already refunded. Contact ${page.merchantName} if you expected more.`)}</main>`,
    };
  const rule = addressRule(page);
  const described = ['address-hint', p.error !== undefined ? 'address-error' : null].filter(Boolean).join(' ');
  return {
    status: p.error === undefined ? 'open' : 'underpaid',
    title: p.error === undefined ? 'Get your refund' : 'Check the address',
    body: html`<main>${head(page, page.amount)}
${statePanel('Where should the refund go?', `Enter your own ${page.asset} address on ${page.network}. This link works once, until ${clock(page.expiresAt)}.`)}
<form class="card refund" method="post" action="${refundLinkPath(page.checkoutId, p.token)}">
<label for="address">Your ${page.asset} address on ${page.network}</label>
<p class="hint" id="address-hint">${rule.hint} Money sent to an address on another network is lost.</p>
${p.error !== undefined && html`<p class="field-error" id="address-error">${p.error}</p>`}
<input id="address" name="address" type="text" required maxlength="128" autocomplete="off" autocapitalize="none" autocorrect="off" spellcheck="false"${rule.pattern === null ? '' : html` pattern="${rule.pattern}" title="${rule.hint}"`} aria-describedby="${described}"${p.error !== undefined ? html` aria-invalid="true" autofocus` : ''} value="${p.address ?? ''}">
<button type="submit">Send my refund here</button>
</form>
</main>
<footer>Refund of payment ${page.checkoutId}, processed by hostpay.</footer>`,
  };
}

/** The whole document: the payment page's layout and stylesheet, no script (nothing on this page changes by itself). */
export function refundDocument(p: RefundPageInput): SafeHtml {
  const r = refundPage(p);
  return layout({ title: `${r.title} · hostpay`, sandbox: p.sandbox, status: r.status, body: r.body, script: false });
}
