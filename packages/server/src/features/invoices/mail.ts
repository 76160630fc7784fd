import { decimalText } from '@hostpay/protocol';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../store/store.js';
import { formatAmount, formatDate } from '../../i18n/format.js';
import { enqueueMail } from '../mail/enqueue.js';
import { linkInLanguage } from '../mail/language.js';
import { oneLine } from '../mail/layout.js';
import type { MailTemplate } from '../mail/templates.js';
import { amountDueOf, storedLines, type InvoiceRow } from './view.js';

export interface InvoiceMail {
  invoice: InvoiceRow;
  /** The public page's URL (holds the token: the mail's data is sealed at rest). */
  url: string;
  at: string;
  box: Pick<SecretBox, 'seal'>;
}

/** The mail kind of an invoice sent to its customer (features/mail, docs/mail.md). */
export const INVOICE_MAIL_KIND = 'invoice';

/**
 * `POST /api/v1/cp/invoices/{id}/send` (spec/commerce.md, "Invoices" and "Email"): inside the send's
 * write transaction, after the invoice passed every check, the customer's mail is written to the
 * mail outbox, so it exists exactly when the send committed (its `sent_at` is set by the caller in
 * the same transaction). What the mail shows is taken now: a later payment does not change a mail
 * already owed. Its data holds the page's token, so it is sealed and deleted 7 days after sending;
 * the sender keeps it (not sent) on a sandbox or without a transport, and adds `[Sandbox]`.
 */
export async function recordInvoiceMail(trx: Db, mail: InvoiceMail): Promise<string> {
  const row = mail.invoice;
  return enqueueMail(
    trx,
    {
      merchantId: row.merchant_id,
      kind: INVOICE_MAIL_KIND,
      to: row.customer_email ?? '',
      toRole: 'payer',
      data: {
        invoiceId: row.id,
        number: row.number,
        customerName: row.customer_name,
        currency: row.currency,
        total: decimalText(row.total),
        amountPaid: decimalText(row.amount_paid),
        amountDue: amountDueOf(row).toFixed(),
        dueAt: row.due_at,
        memo: row.memo,
        lines: storedLines(row).map((l) => ({ description: l.description, quantity: l.quantity, amount: l.amount })),
        url: mail.url,
      },
      secret: true,
    },
    mail.at,
    mail.box,
  );
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The invoice mail, in the payer's language (features/mail/language.ts): who it is from, the
 * number, what is due and by when, the lines, the memo, and the page (Pay there) and its PDF,
 * both opening in the mail's language. Everything the merchant typed (names, lines, memo)
 * reaches the HTML escaped by the layout; no tracking.
 */
export const invoiceMailTemplate: MailTemplate = {
  kind: INVOICE_MAIL_KIND,
  render(d, ctx) {
    const { lang, t } = ctx.speech;
    const sender = ctx.senderName;
    const currency = str(d.currency);
    const money = (v: unknown) => formatAmount(lang, str(v), currency);
    const number = str(d.number);
    const due = typeof d.dueAt === 'string' ? formatDate(lang, d.dueAt) : null;
    const paid = str(d.amountDue) === '0';
    const amount = money(d.amountDue);
    const lines = Array.isArray(d.lines)
      ? (d.lines as { description?: unknown; quantity?: unknown; amount?: unknown }[])
      : [];
    const rows: [string, string][] = [
      [t('mail.invoiceNumber'), number],
      [t('mail.total'), money(d.total)],
    ];
    if (str(d.amountPaid) !== '0') rows.push([t('mail.invoicePaid'), money(d.amountPaid)]);
    rows.push([t('mail.invoiceAmountDue'), amount]);
    if (due !== null) rows.push([t('mail.invoiceDue'), due]);
    const url = str(d.url);
    const name = str(d.customerName);
    const subject = paid
      ? t('mail.invoiceSubject', { number, sender })
      : due === null
        ? t('mail.invoiceSubjectDue', { number, sender, amount })
        : t('mail.invoiceSubjectDueBy', { number, sender, amount, date: due });
    return {
      subject,
      ...(paid || due === null ? {} : { preheader: t('mail.invoicePreheader', { amount, date: due }) }),
      blocks: [
        {
          p:
            name === ''
              ? t('mail.invoiceHelloNoName', { sender, number })
              : t('mail.invoiceHello', { name, sender, number }),
        },
        { rows },
        ...(lines.length === 0
          ? []
          : [
              {
                rows: lines.map(
                  (l) =>
                    [
                      t('mail.line', { quantity: str(l.quantity), description: oneLine(str(l.description)) }),
                      money(l.amount),
                    ] as const,
                ),
              },
            ]),
        ...(str(d.memo) === '' ? [] : [{ p: str(d.memo) }]),
        { button: { label: t(paid ? 'mail.invoiceView' : 'mail.invoicePay'), url: linkInLanguage(url, lang) } },
        { button: { label: t('mail.downloadPdf'), url: linkInLanguage(`${url}/pdf`, lang) } },
        { small: t('mail.invoiceHow') },
      ],
      why: t('mail.invoiceWhy', { sender }),
    };
  },
};
