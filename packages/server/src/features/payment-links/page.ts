import { decimalText } from '@hostpay/protocol';
import { isDataImage, logoOrigin } from '../../http/page-headers.js';
import type { PageSpeech } from '../../http/payer-language.js';
import { formatAmount, formatDateTime } from '../../i18n/format.js';
import { ENGLISH, type Speech } from '../../i18n/messages.js';
import { html, ltr, type SafeHtml } from '../pay/html.js';
import { layout } from '../pay/templates/layout.js';
import type { PublicLink } from './service.js';
import { linkPath } from './view.js';

export interface LinkPageInput {
  view: PublicLink;
  sandbox: boolean;
  /** The payer's language; English without it. */
  speech?: PageSpeech | Speech;
  /** `?lang=` of the form's action: a language the payer picked, kept on the post's answer. */
  formLang?: string | undefined;
  /** The form's nonce (http/public-form.ts). */
  nonce: string;
  /** What the payer typed, written back after a refusal. */
  amount?: string;
  email?: string;
  /** The refusal, in the payer's language, tied to its field. */
  error?: { field: 'amount' | 'email' | 'form'; message: string };
}

/**
 * An amount of the link's currency as the payer reads it: fiat formatted, crypto exact; a no-break
 * space between number and symbol, so a narrow line never splits them.
 */
export const money = (s: Speech, v: PublicLink, amount: string) =>
  formatAmount(s.lang, decimalText(amount), v.link.currency, v.fiat).replace(' ', '\u00a0');

/** Amounts keep their left-to-right order inside a right-to-left sentence. */

function logo(v: PublicLink): SafeHtml | null {
  if (logoOrigin(v.logoUrl) === null && !isDataImage(v.logoUrl)) return null;
  return html`<img class="logo" src="${v.logoUrl}" alt="${v.merchantName}" height="48">`;
}

function head(v: PublicLink, s: Speech): SafeHtml {
  const { link } = v;
  return html`<header class="card head">
${logo(v)}
<p class="to">${s.t('link.paymentTo', { merchant: v.merchantName })}</p>
<h1>${link.name}</h1>
${link.description !== null && link.description !== '' && html`<p class="desc">${link.description}</p>`}
${link.amount !== null && html`<p class="amount">${ltr(money(s, v, link.amount))}</p>`}
</header>`;
}

export type Unavailable = 'inactive' | 'expired' | 'used_up';

function why(v: PublicLink, reason: Unavailable, s: Speech): [string, string] {
  if (reason === 'inactive') return [s.t('link.inactiveTitle'), s.t('link.inactiveMessage')];
  if (reason === 'expired') {
    const when = `${formatDateTime(s.lang, v.link.expires_at ?? new Date().toISOString())} UTC`;
    return [s.t('link.expiredTitle'), s.t('link.expiredMessage', { when })];
  }
  return [s.t('link.usedUpTitle'), s.t('link.usedUpMessage', { count: v.link.max_uses ?? 1 })];
}

/** The page of a link that makes no checkout now (410): says which of the three it is. */
export function unavailableDocument(
  v: PublicLink,
  reason: Unavailable,
  sandbox: boolean,
  speech: PageSpeech | Speech = ENGLISH,
): SafeHtml {
  const [title, message] = why(v, reason, speech);
  return layout({
    title: `${title} · hostpay`,
    sandbox,
    status: 'invalid',
    script: false,
    speech,
    brand: v.brand,
    body: html`<main>${head(v, speech)}
<section class="card state" aria-labelledby="state-title" data-reason="${reason}">
<h2 id="state-title">${title}</h2>
<p>${message}</p>
</section>
</main>`,
  });
}

function lineItems(v: PublicLink, s: Speech): SafeHtml | null {
  if (v.link.line_items === null) return null;
  const items = JSON.parse(v.link.line_items) as { name: string; quantity: number; unitAmount: string }[];
  const count = new Intl.NumberFormat(s.lang);
  return html`<section class="card" aria-labelledby="items-title">
<h2 id="items-title">${s.t('link.items')}</h2>
<ul class="items">
${items.map((i) => html`<li>${s.t('link.itemLine', { quantity: count.format(i.quantity), name: i.name })}: ${ltr(money(s, v, i.unitAmount))}</li>`)}
</ul>
${v.link.amount !== null && html`<p class="total"><strong>${s.t('link.total')}: ${ltr(money(s, v, v.link.amount))}</strong></p>`}
</section>`;
}

function amountHint(p: LinkPageInput, s: Speech): string {
  const { view: v } = p;
  const { min_amount: min, max_amount: max } = v.link;
  const bounds =
    min !== null && max !== null
      ? s.t('link.amountBetween', { min: money(s, v, min), max: money(s, v, max) })
      : min !== null
        ? s.t('link.amountAtLeast', { min: money(s, v, min) })
        : max !== null
          ? s.t('link.amountAtMost', { max: money(s, v, max) })
          : '';
  return `${bounds} ${s.t('link.amountDecimals', { count: v.decimals })}`.trim();
}

function amountField(p: LinkPageInput, s: Speech): SafeHtml | null {
  const { link, decimals } = p.view;
  if (link.amount !== null) return null;
  const err = p.error?.field === 'amount';
  const step = decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`;
  return html`<label for="amount">${s.t('link.amountLabel', { currency: link.currency })}</label>
<p class="hint" id="amount-hint">${amountHint(p, s)}</p>
${err && html`<p class="field-error" id="amount-error">${p.error!.message}</p>`}
<input id="amount" name="amount" type="number" dir="ltr" inputmode="decimal" required step="${step}"${link.min_amount !== null ? html` min="${decimalText(link.min_amount)}"` : ''}${link.max_amount !== null ? html` max="${decimalText(link.max_amount)}"` : ''} aria-describedby="amount-hint${err ? ' amount-error' : ''}"${err ? html` aria-invalid="true" autofocus` : ''} value="${p.amount ?? ''}">`;
}

function emailField(p: LinkPageInput, s: Speech): SafeHtml | null {
  const mode = p.view.link.collect_email;
  if (mode === 'none') return null;
  const err = p.error?.field === 'email';
  return html`<label for="email">${mode === 'optional' ? s.t('link.emailOptional') : s.t('link.email')}</label>
<p class="hint" id="email-hint">${s.t('link.emailHint')}</p>
${err && html`<p class="field-error" id="email-error">${p.error!.message}</p>`}
<input id="email" name="email" type="email" dir="ltr" autocomplete="email" maxlength="254"${mode === 'required' ? ' required' : ''} aria-describedby="email-hint${err ? ' email-error' : ''}"${err ? html` aria-invalid="true" autofocus` : ''} value="${p.email ?? ''}">`;
}

/** The link's page (spec/commerce.md, "Payment links"): one form, complete without JavaScript. */
export function linkDocument(p: LinkPageInput): SafeHtml {
  const { view: v } = p;
  const s = p.speech ?? ENGLISH;
  const action = `${linkPath(v.link.slug)}${p.formLang === undefined ? '' : `?lang=${encodeURIComponent(p.formLang)}`}`;
  return layout({
    title: `${v.link.name} · ${v.merchantName} · hostpay`,
    sandbox: p.sandbox,
    status: p.error === undefined ? 'open' : 'underpaid',
    script: false,
    speech: s,
    brand: v.brand,
    body: html`<main>${head(v, s)}
${lineItems(v, s)}
<form class="card refund" method="post" action="${action}">
<input type="hidden" name="nonce" value="${p.nonce}">
${p.error?.field === 'form' && html`<p class="field-error" id="form-error">${p.error.message}</p>`}
${amountField(p, s)}
${emailField(p, s)}
<button type="submit">${s.t('link.pay')}</button>
</form>
</main>
<footer>${s.t('link.footer', { merchant: v.merchantName })}</footer>`,
  });
}
