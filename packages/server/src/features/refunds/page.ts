import type { Brand } from '../self-service/look.js';
import { findFamily } from '../../chain-families/index.js';
import type { PageSpeech } from '../../http/payer-language.js';
import { formatDateTime } from '../../i18n/format.js';
import { ENGLISH, type MessageKey, type MessageValues, type Speech } from '../../i18n/messages.js';
import { escapeHtml, html, ltr, SafeHtml } from '../pay/html.js';
import { layout } from '../pay/templates/layout.js';
import { refundLinkPath } from './links.js';
import type { RefundFacts, RefundPage } from './service.js';

/**
 * What the address field says it takes, and the browser's own check of its shape (`pattern`):
 * a hint only, so a typo is caught before a round trip; the server's validator decides (checksums,
 * the network), and its refusal is shown on the page.
 */
export function addressRule(
  f: Pick<RefundFacts, 'family' | 'networkType'>,
  s: Speech,
): { hint: string; pattern: string | null } {
  const field = findFamily(f.family)?.addressField(f.networkType);
  if (field === undefined) return { hint: '', pattern: null };
  const starts = new Intl.ListFormat(s.lang, { type: 'disjunction' }).format(field.starts);
  const hint =
    field.hexDigits !== undefined
      ? s.t('refund.addressHintHex', { starts, count: field.hexDigits })
      : field.length !== undefined
        ? s.t('refund.addressHintLength', { starts, count: field.length })
        : s.t('refund.addressHintStarts', { starts });
  return { hint, pattern: field.pattern };
}

/** Addresses, amounts and codes keep their left-to-right order inside a right-to-left sentence. */
/** A crypto amount as exact text, a no-break space before its symbol (a narrow line never splits them). */
const cryptoAmount = (amount: string, asset: string) => `${amount}\u00a0${asset}`;

/**
 * A message whose placeholders hold markup (an isolated amount, a code element): translated with
 * markers in their place, escaped, then the markup put where the markers are.
 */
function rich(s: Speech, key: MessageKey, text: MessageValues, parts: Record<string, SafeHtml>): SafeHtml {
  const names = Object.keys(parts);
  const marks = Object.fromEntries(names.map((n, i) => [n, `\uE000${i}\uE001`]));
  let out = escapeHtml(s.t(key, { ...text, ...marks }));
  names.forEach((n, i) => {
    out = out.replace(`\uE000${i}\uE001`, () => parts[n]!.text);
  });
  return new SafeHtml(out);
}

/** A moment as the payer reads it, in UTC (the server's clock; said so). */
const clock = (s: Speech, iso: string) => `${formatDateTime(s.lang, iso)} UTC`;

const networkOf = (f: RefundFacts) => (f.network === f.chainName ? f.chainName : `${f.network} (${f.chainName})`);

const head = (f: RefundFacts, s: Speech, amount: string | null) => html`<header class="card head">
<p class="to">${s.t('refund.from')}</p>
<h1>${f.merchantName}</h1>
${amount !== null && html`<p class="amount">${ltr(cryptoAmount(amount, f.asset))}</p>`}
<p class="desc">${s.t('refund.paidBackIn', { asset: f.asset, network: networkOf(f) })}</p>
</header>`;

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
  /** The payer's language; English without it. */
  speech?: PageSpeech | Speech;
  /** The merchant's colours (null: the default palette). */
  brand?: Brand | null;
  /** `?lang=` of the form's action: a language the payer picked, kept on the post's answer. */
  formLang?: string | undefined;
  /** The address the payer typed, written back after a refusal. */
  address?: string;
  /** Why that address is refused, in the payer's language, tied to the field. */
  error?: string;
  /** The refund just requested. */
  requested?: { address: string; amount: string };
}

type Rendered = { status: string; body: SafeHtml; title: string };

function closed(page: Exclude<RefundPage, { kind: 'not_found' | 'form' }>, s: Speech): Rendered {
  const merchant = page.merchantName;
  const [title, heading, message] =
    page.kind === 'used'
      ? [
          s.t('refund.usedTitle'),
          s.t('refund.usedHeading'),
          s.t('refund.usedMessage', { when: clock(s, page.usedAt), merchant }),
        ]
      : page.kind === 'expired'
        ? [
            s.t('refund.expiredTitle'),
            s.t('refund.expiredHeading'),
            s.t('refund.expiredMessage', { when: clock(s, page.expiresAt), merchant }),
          ]
        : [
            s.t('refund.nothingLeftTitle'),
            s.t('refund.nothingLeftTitle'),
            s.t('refund.nothingLeftMessage', { merchant }),
          ];
  return { status: 'invalid', title, body: html`<main>${head(page, s, null)}\n${statePanel(heading, message)}</main>` };
}

function form(p: RefundPageInput, page: Extract<RefundPage, { kind: 'form' }>, s: Speech): Rendered {
  const rule = addressRule(page, s);
  const described = ['address-hint', p.error !== undefined ? 'address-error' : null].filter(Boolean).join(' ');
  const where = { asset: page.asset, network: page.network };
  const action = `${refundLinkPath(page.checkoutId, p.token)}${p.formLang === undefined ? '' : `?lang=${encodeURIComponent(p.formLang)}`}`;
  return {
    status: p.error === undefined ? 'open' : 'underpaid',
    title: p.error === undefined ? s.t('refund.formTitle') : s.t('refund.checkAddressTitle'),
    body: html`<main>${head(page, s, page.amount)}
${statePanel(s.t('refund.whereHeading'), s.t('refund.whereMessage', { ...where, when: clock(s, page.expiresAt) }))}
<form class="card refund" method="post" action="${action}">
<label for="address">${s.t('refund.addressLabel', where)}</label>
<p class="hint" id="address-hint">${rule.hint} ${s.t('refund.otherNetwork')}</p>
${p.error !== undefined && html`<p class="field-error" id="address-error">${p.error}</p>`}
<input id="address" name="address" type="text" dir="ltr" required maxlength="128" autocomplete="off" autocapitalize="none" autocorrect="off" spellcheck="false"${rule.pattern === null ? '' : html` pattern="${rule.pattern}" title="${rule.hint}"`} aria-describedby="${described}"${p.error !== undefined ? html` aria-invalid="true" autofocus` : ''} value="${p.address ?? ''}">
<button type="submit">${s.t('refund.submit')}</button>
</form>
</main>
<footer>${rich(s, 'refund.footer', {}, { checkoutId: ltr(page.checkoutId) })}</footer>`,
  };
}

/** The refund link's page (spec/payouts.md, "Refunds"): one form, complete without JavaScript. */
export function refundPage(p: RefundPageInput): Rendered {
  const { page } = p;
  const s = p.speech ?? ENGLISH;
  if (page.kind === 'not_found')
    return {
      status: 'invalid',
      title: s.t('refund.notFoundTitle'),
      body: html`<main>${statePanel(s.t('refund.notFoundTitle'), s.t('refund.notFoundMessage'))}</main>`,
    };
  if (p.requested !== undefined) {
    const message = rich(
      s,
      'refund.requestedMessage',
      { merchant: page.merchantName },
      {
        amount: ltr(cryptoAmount(p.requested.amount, page.asset)),
        address: html`<code class="tx" dir="ltr">${p.requested.address}</code>`,
      },
    );
    return {
      status: 'settled',
      title: s.t('refund.requestedTitle'),
      body: html`<main>${head(page, s, p.requested.amount)}
${statePanel(s.t('refund.requestedTitle'), message, true)}</main>`,
    };
  }
  if (page.kind !== 'form') return closed(page, s);
  return form(p, page, s);
}

/** The whole document: the payment page's layout and stylesheet, no script (nothing on this page changes by itself). */
export function refundDocument(p: RefundPageInput): SafeHtml {
  const r = refundPage(p);
  return layout({
    title: `${r.title} · hostpay`,
    sandbox: p.sandbox,
    status: r.status,
    body: r.body,
    script: false,
    brand: p.brand ?? null,
    ...(p.speech === undefined ? {} : { speech: p.speech }),
  });
}
