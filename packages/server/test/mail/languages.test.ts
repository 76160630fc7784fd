import { describe, expect, it } from 'vitest';
import { invoiceMailTemplate } from '../../src/features/invoices/mail.js';
import { linkInLanguage, payerMailLanguage } from '../../src/features/mail/language.js';
import { escapeHtml } from '../../src/features/mail/layout.js';
import { type RenderDeps, renderRow, type Sender } from '../../src/features/mail/render.js';
import { BUILT_IN_TEMPLATES } from '../../src/features/mail/templates.js';
import { receiptMailTemplate } from '../../src/features/pay/receipt-mail.js';
import type { ReceiptView } from '../../src/features/pay/receipt-view.js';
import { refundLinkMailTemplate } from '../../src/features/refunds/mail.js';
import { formatAmount, formatDate, formatDateTime } from '../../src/i18n/format.js';
import { directionOf, LANG_CODES, type Lang } from '../../src/i18n/languages.js';
import { speechOf } from '../../src/i18n/messages.js';
import type { Db } from '../../src/store/store.js';

/**
 * The payers' mails in every language, rendered as the sender renders them (render.ts, the
 * layout and each kind's template) from data naming the payer's language: subject, text and
 * HTML have no placeholder left, the HTML carries the language and its direction and escapes
 * what the merchant typed, every link opens its page in the mail's language, and the subject
 * is translated. No store is read: the language is in the data and the sender is given.
 */
const BASE = 'https://pay.example.com';
const EVIL = 'Bob <script>alert(1)</script> & "Co"';
const SENDER: Sender = { name: EVIL, logoUrl: null, supportEmail: 'help@bob.example' };
const DUE = '2026-12-31T12:00:00.000Z';
const PAID_AT = '2026-11-29T10:24:00.000Z';
const EXPIRES = '2026-12-06T18:30:00.000Z';

/** A receipt of an invoice's part payment: every label the receipt mail has to put in words. */
const RECEIPT: ReceiptView = {
  checkoutId: 'chk_lang',
  receiptNumber: 'RCPT-000042',
  receiptUrl: '/pay/chk_lang/receipt',
  paidAt: PAID_AT,
  merchantName: EVIL,
  logoUrl: null,
  brand: null,
  language: null,
  seller: { legalName: 'Bob & Co <Ltd>', address: 'Main St 1', taxId: 'DE123', supportEmail: null },
  description: 'Order <b>7</b>',
  currency: 'EUR',
  fiatCurrency: true,
  amount: '40.5',
  items: {
    lines: [
      {
        description: 'Consulting <i>hours</i>',
        quantity: '2',
        unitAmount: '42',
        amount: '84',
        tax: { percent: '19', amount: '15.96' },
      },
    ],
    totals: [
      { label: 'Subtotal', kind: 'subtotal', amount: '84' },
      { label: 'Tax', kind: 'tax', amount: '15.96' },
      { label: 'Invoice total', kind: 'invoiceTotal', amount: '99.96' },
    ],
    paidLabel: 'This payment',
    paid: 'part',
    reference: 'Invoice INV-000012 (part payment of its total of 99.96 EUR)',
    invoice: { number: 'INV-000012', partOf: '99.96' },
  },
  paidWith: { asset: 'USDT', chain: 'TRON', network: 'TRC20', amount: '43.87', rate: '1.0832' },
  payments: [
    { asset: 'USDT', chain: 'TRON', amount: '43.87', txHash: '0xlanghash', explorerUrl: 'https://tronscan.org/#/tx/1' },
  ],
  refunds: [],
};

const deps: RenderDeps = {
  // Never read: the language is in each mail's data and the sender is given.
  db: undefined as unknown as Db,
  box: { open: () => Buffer.from('{}') },
  baseUrl: () => BASE,
  sandbox: false,
  templates: () => [
    ...BUILT_IN_TEMPLATES,
    invoiceMailTemplate,
    refundLinkMailTemplate,
    receiptMailTemplate({ receipt: async (id) => (id === RECEIPT.checkoutId ? RECEIPT : undefined) }),
  ],
};

const MAILS = {
  invoice: {
    invoiceId: 'inv_lang',
    number: 'INV-000012',
    customerName: 'Ada <b>Lovelace</b>',
    currency: 'EUR',
    total: '99.96',
    amountPaid: '0',
    amountDue: '99.96',
    dueAt: DUE,
    memo: 'Thanks! <img src="https://tracker.example/pixel.gif">',
    lines: [{ description: 'Consulting <i>hours</i>', quantity: '2', amount: '84' }],
    url: `${BASE}/i/tok_invoice`,
  },
  receipt: { checkoutId: RECEIPT.checkoutId, receiptNumber: RECEIPT.receiptNumber },
  'refund-link': {
    checkoutId: 'chk_lang',
    amount: '12.5',
    fixed: false,
    asset: 'USDT',
    network: 'TRC20',
    url: `${BASE}/r/tok_refund`,
    expiresAt: EXPIRES,
  },
} as const;
type Kind = keyof typeof MAILS;

const render = async (kind: Kind, data: Record<string, unknown>, role: 'payer' | 'user' = 'payer') => {
  const row = {
    id: 'mail_lang',
    kind,
    merchant_id: null,
    to_role: role,
    data: JSON.stringify(data),
    data_sealed: null,
  };
  const out = await renderRow(deps, row, SENDER);
  if (out === null) throw new Error('no mail');
  return out;
};

const linksOf = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

/** What each mail must show of its figures, formatted in its language. */
const FIGURES: Record<Kind, (lang: Lang) => string[]> = {
  invoice: (lang) => [formatAmount(lang, '99.96', 'EUR'), formatDate(lang, DUE), 'INV-000012'],
  receipt: (lang) => [formatAmount(lang, '40.5', 'EUR'), formatDateTime(lang, PAID_AT), '0xlanghash', 'RCPT-000042'],
  'refund-link': (lang) => ['12.5 USDT', formatDateTime(lang, EXPIRES), 'TRC20'],
};

describe('payer mails in every language', () => {
  for (const kind of Object.keys(MAILS) as Kind[]) {
    describe(kind, () => {
      for (const lang of LANG_CODES) {
        it(lang, async () => {
          const english = await render(kind, { ...MAILS[kind], lang: 'en' });
          const mail = await render(kind, { ...MAILS[kind], lang });
          const dir = directionOf(lang);
          for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/[{}]/);
          if (lang !== 'en') {
            expect(mail.subject).not.toBe(english.subject);
            expect(mail.text).not.toBe(english.text);
          }
          // The merchant's name, in the subject as it is and in the HTML escaped.
          expect(mail.subject).toContain(EVIL);
          expect(mail.html).not.toMatch(/<script|<b>|<i>|<img src="https:\/\/tracker/);
          expect(mail.html).toContain(escapeHtml(EVIL));
          expect(mail.html).toContain(`<html lang="${lang}" dir="${dir}">`);
          expect(mail.html).toContain(`<body dir="${dir}"`);
          if (dir === 'rtl') {
            expect(mail.html).toContain('<table dir="rtl"');
            expect(mail.html).toContain('text-align:right');
            expect(mail.html).not.toContain('<table dir="ltr"');
          }
          const links = linksOf(mail.html);
          expect(links.length).toBeGreaterThan(0);
          for (const link of links) expect(new URL(link).searchParams.get('lang'), link).toBe(lang);
          for (const link of links) expect(mail.text).toContain(link);
          for (const figure of FIGURES[kind](lang)) {
            expect(mail.text, figure).toContain(figure);
            expect(mail.html, figure).toContain(escapeHtml(figure));
          }
          expect(mail.text).toContain('hostpay');
        });
      }
    });
  }

  it('the invoice mail escapes the customer, lines and memo, and says what the English one says', async () => {
    const mail = await render('invoice', { ...MAILS.invoice, lang: 'en' });
    expect(mail.subject).toBe(`Invoice INV-000012 from ${EVIL}: €99.96 due by December 31, 2026`);
    expect(mail.text).toContain(`Hello Ada <b>Lovelace</b>, ${EVIL} sent you invoice INV-000012.`);
    expect(mail.text).toContain('2 × Consulting <i>hours</i>: €84.00');
    expect(mail.html).toContain('Hello Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(mail.html).toContain('&lt;img src=&quot;https://tracker.example/pixel.gif&quot;&gt;');
    expect(linksOf(mail.html)).toEqual([`${BASE}/i/tok_invoice?lang=en`, `${BASE}/i/tok_invoice/pdf?lang=en`]);
    expect(mail.text).toContain(`Sent by ${EVIL} through hostpay; reply to reach ${EVIL}. No tracking.`);
  });

  it("the receipt mail puts the items' own labels and what the payment was for in the mail's language", async () => {
    const de = await render('receipt', { ...MAILS.receipt, lang: 'de' });
    // German amounts: "99,96 €" with a no-break space.
    const eur = (amount: string) => formatAmount('de', amount, 'EUR');
    expect(eur('99.96')).toBe('99,96\u00a0€');
    for (const s of [
      `Zahlung für: Rechnung INV-000012 (Teilzahlung auf den Gesamtbetrag von ${eur('99.96')})`,
      `Diese Zahlung: ${eur('40.50')}`,
      `Zwischensumme: ${eur('84')}`,
      `Steuer: ${eur('15.96')}`,
      `Rechnungsbetrag: ${eur('99.96')}`,
      'Kurs: 1 EUR = 1.0832 USDT',
      'Steuernummer DE123',
    ])
      expect(de.text).toContain(s);
    for (const english of ['This payment', 'Subtotal', 'Invoice total', 'part payment', 'Tax ID'])
      expect(de.text).not.toContain(english);
    // A figure without a kind is shown under its own label; a line without a description is the payment.
    const other: ReceiptView = {
      ...RECEIPT,
      description: null,
      items: {
        lines: [{ description: '', quantity: '1', unitAmount: '5', amount: '5', tax: null }],
        totals: [{ label: 'Shipping', amount: '5' }],
        paidLabel: 'Total',
        paid: 'total',
        reference: null,
      },
    };
    const shown = await renderRow(
      { ...deps, templates: () => [receiptMailTemplate({ receipt: async () => other })] },
      { id: 'm', kind: 'receipt', merchant_id: null, to_role: 'payer', data: '{"lang":"fr"}', data_sealed: null },
      SENDER,
    );
    expect(shown!.text).toContain(`Shipping: ${formatAmount('fr', '5', 'EUR')}`);
    expect(shown!.text).toContain(`1 × Paiement: ${formatAmount('fr', '5', 'EUR')}`);
    expect(shown!.text).toContain(`Montant total: ${formatAmount('fr', '40.5', 'EUR')}`);
    expect(shown!.text).not.toContain('Objet du paiement');
  });

  it('the Arabic mail reads right to left, its URLs and figures left to right', async () => {
    const ar = await render('refund-link', { ...MAILS['refund-link'], lang: 'ar' });
    expect(ar.html).toMatch(
      /<p dir="ltr" [^>]*text-align:right[^>]*>https:\/\/pay\.example\.com\/r\/tok_refund\?lang=ar</,
    );
    expect(ar.html).toContain('padding:2px 0 2px 12px');
    // What fills the Arabic sentences is isolated: "12.5 USDT" and "TRC20" stay whole, left to right.
    expect(ar.text).toContain('\u206812.5 USDT\u2069');
    expect(ar.text).toContain('\u2068TRC20\u2069');
    const en = await render('refund-link', { ...MAILS['refund-link'], lang: 'en' });
    expect(en.text).not.toMatch(/[\u2066-\u2069]/);
  });

  it('a mail to a dashboard user stays English whatever its data says', async () => {
    const invite = await render('invoice', { ...MAILS.invoice, lang: 'de' }, 'user');
    expect(invite.html).toContain('<html lang="en" dir="ltr">');
    expect(invite.subject).toMatch(/^Invoice INV-000012 from /);
  });

  it('without a language of its own a payer mail is in the merchant default, else English', async () => {
    const db = undefined as unknown as Db;
    expect(await payerMailLanguage(db, null, {})).toBe('en');
    expect(await payerMailLanguage(db, null, { lang: 'xx' })).toBe('en');
    expect(await payerMailLanguage(db, null, { lang: 'DE' })).toBe('en');
    expect(await payerMailLanguage(db, null, { lang: 'pt-BR' })).toBe('pt-BR');
    const plain = await render('refund-link', MAILS['refund-link']);
    expect(plain.subject).toBe(`${EVIL} is refunding your payment: up to 12.5 USDT`);
  });

  it("the dashboard users' mails are messages too: each reads in every language with nothing left unfilled", async () => {
    const data: Record<string, Record<string, unknown>> = {
      invitation: { link: `${BASE}/dashboard/invitation/t`, expiresAt: EXPIRES, role: 'admin', email: 'a@b.example' },
      'password-reset': { link: `${BASE}/dashboard/password-reset/t`, expiresAt: EXPIRES },
      security: { action: 'key.rolled', at: PAID_AT, by: 'a@b.example', ip: '192.0.2.1', keyId: 'key_1' },
    };
    for (const lang of LANG_CODES)
      for (const template of BUILT_IN_TEMPLATES.filter((t) => t.kind in data)) {
        const ctx = { db: deps.db, baseUrl: BASE, senderName: 'Acme', speech: speechOf(lang) };
        const content = await template.render(data[template.kind]!, ctx);
        // Every text of it: the subject, why, and each block's words.
        const words = [content.subject, content.why, ...content.blocks.flatMap((b) => Object.values(b).flat(2))]
          .map((w) => (typeof w === 'string' ? w : Object.values(w as object).join(' ')))
          .join('\n');
        expect(words, `${lang} ${template.kind}`).not.toMatch(/[{}]/);
        const moment = formatDateTime(lang, template.kind === 'security' ? PAID_AT : EXPIRES);
        expect(words, `${lang} ${template.kind}`).toContain(moment);
      }
  });

  it("links keep their query and fragment and gain the mail's language", () => {
    expect(linkInLanguage('https://x.example/i/t', 'ja')).toBe('https://x.example/i/t?lang=ja');
    expect(linkInLanguage('https://x.example/i/t?a=1&lang=fr', 'ar')).toBe('https://x.example/i/t?a=1&lang=ar');
    expect(linkInLanguage('https://x.example/i/t#top', 'zh-CN')).toBe('https://x.example/i/t?lang=zh-CN#top');
    expect(linkInLanguage('', 'de')).toBe('');
  });
});
