import { formatAmount, formatDateTime } from '../../i18n/format.js';
import type { MessageKey, Speech } from '../../i18n/messages.js';
import { enqueueMail } from '../mail/enqueue.js';
import { linkInLanguage } from '../mail/language.js';
import { type Block, oneLine } from '../mail/layout.js';
import type { MailTemplate } from '../mail/templates.js';
import type { CheckoutMoveHandler } from '../checkouts/moves.js';
import type { ReceiptTotal } from './receipt-lines.js';
import type { ReceiptSource, ReceiptView } from './receipt-view.js';

/** The mail kind of a payer's receipt (features/mail, docs/mail.md). */
export const RECEIPT_MAIL_KIND = 'receipt';

/** The key that makes a checkout's receipt mail owed once (features/mail/enqueue.ts). */
export const receiptMailKey = (checkoutId: string) => `receipt:${checkoutId}`;

/**
 * The payer's receipt (spec/commerce.md, "Email" and "Receipts"): a checkout with `customerEmail`
 * that settles owes its payer one receipt mail, written in the settlement's transaction (a
 * checkout move, after its receipt number was assigned), unless the merchant turned the
 * `emailReceipts` setting off (on by default). Settled is final, so a checkout settles once; the
 * mail's key makes a second write of it (a retried or raced settlement) write nothing all the same.
 */
export const receiptMailOwed: CheckoutMoveHandler = async (trx, move) => {
  const row = move.checkout.row;
  if (move.to !== 'settled' || row.customer_email === null || row.receipt_number === null) return;
  const merchant = await trx
    .selectFrom('merchants')
    .select('email_receipts')
    .where('id', '=', row.merchant_id)
    .executeTakeFirst();
  if (merchant === undefined || Number(merchant.email_receipts) !== 1) return;
  await enqueueMail(
    trx,
    {
      merchantId: row.merchant_id,
      kind: RECEIPT_MAIL_KIND,
      to: row.customer_email,
      toRole: 'payer',
      data: { checkoutId: row.id, receiptNumber: row.receipt_number },
      key: receiptMailKey(row.id),
    },
    move.at,
  );
};

const absolute = (base: string, url: string) => (url.startsWith('/') ? `${base}${url}` : url);

/** The figures under the lines, by what they are (the item sources say it); a label without a kind is shown as it is. */
const TOTALS: Record<NonNullable<ReceiptTotal['kind']>, MessageKey> = {
  subtotal: 'mail.receiptSubtotal',
  tax: 'mail.receiptTax',
  invoiceTotal: 'mail.receiptInvoiceTotal',
};

/** The label of the amount this checkout paid: the whole sum, or a part of a larger one. */
function paidLabel({ t }: Speech, r: ReceiptView): string {
  if (r.items.paid === 'part') return t('mail.receiptThisPayment');
  if (r.items.paid === 'total') return t('mail.total');
  return r.items.paidLabel;
}

/** What the payment settles: an invoice (in full, or a part of its total), in the mail's language. */
function referenceText({ lang, t }: Speech, r: ReceiptView): string | null {
  const invoice = r.items.invoice;
  if (invoice === undefined || invoice === null) return r.items.reference === null ? null : oneLine(r.items.reference);
  const number = invoice.number;
  return invoice.partOf === null
    ? t('mail.receiptForInvoice', { number })
    : t('mail.receiptForInvoicePart', {
        number,
        amount: formatAmount(lang, invoice.partOf, r.currency, r.fiatCurrency),
      });
}

/** What was paid, each payment with its hash (and the explorer's page of it), the refunds sent back. */
function paidRows({ t }: Speech, r: ReceiptView): [string, string][] {
  const crypto = (amount: string, asset: string) => `${amount} ${asset}`;
  const rows: [string, string][] = [];
  if (r.paidWith !== null) {
    const w = r.paidWith;
    rows.push([
      t('mail.receiptPaidWith'),
      t('mail.receiptPaidWithValue', { amount: crypto(w.amount, w.asset), network: w.network }),
    ]);
    if (w.asset !== r.currency)
      rows.push([
        t('mail.receiptRate'),
        t('mail.receiptRateValue', { currency: r.currency, rate: w.rate, asset: w.asset }),
      ]);
  }
  for (const p of r.payments) {
    const value = { amount: crypto(p.amount, p.asset), chain: p.chain, hash: p.txHash };
    rows.push([t('mail.receiptTransaction'), t('mail.receiptTransactionValue', value)]);
    if (p.explorerUrl !== null) rows.push([t('mail.receiptExplorer'), p.explorerUrl]);
  }
  for (const f of r.refunds) {
    const sent = crypto(f.amount, f.asset);
    rows.push([
      t('mail.receiptRefunded'),
      f.txHash === ''
        ? `${sent} (${f.chain})`
        : t('mail.receiptTransactionValue', { amount: sent, chain: f.chain, hash: f.txHash }),
    ]);
  }
  return rows;
}

/** The items: the lines (one without a description is the payment itself), then their totals. */
function itemRows(speech: Speech, r: ReceiptView): [string, string][] {
  const { lang, t } = speech;
  const money = (amount: string) => formatAmount(lang, amount, r.currency, r.fiatCurrency);
  return [
    ...r.items.lines.map((l): [string, string] => [
      t('mail.line', {
        quantity: l.quantity,
        description: l.description === '' ? t('mail.receiptPayment') : oneLine(l.description),
      }),
      money(l.amount),
    ]),
    ...r.items.totals.map((x): [string, string] => [
      x.kind === undefined ? x.label : t(TOTALS[x.kind]),
      money(x.amount),
    ]),
  ];
}

/**
 * The receipt mail, in the payer's language (features/mail/language.ts), rendered when it is sent
 * from the receipt the page shows (pay/receipt-view.ts): the receipt number and date, the price,
 * the items, what was paid (asset, chain, amount, rate, each transaction hash), the seller
 * details, and the receipt page and its PDF in the mail's language. Never the fee, metadata,
 * order id or the payer's email, as on the page.
 */
export function receiptMailTemplate(receipts: ReceiptSource): MailTemplate {
  return {
    kind: RECEIPT_MAIL_KIND,
    async render(d, ctx) {
      const speech = ctx.speech;
      const { lang, t } = speech;
      const sender = ctx.senderName;
      const id = typeof d.checkoutId === 'string' ? d.checkoutId : '';
      const r = await receipts.receipt(id);
      if (r === undefined) throw new Error(`checkout ${id} has no receipt (not settled)`);
      const number = r.receiptNumber;
      const amount = formatAmount(lang, r.amount, r.currency, r.fiatCurrency);
      const taxId = r.seller.taxId === null ? null : t('mail.receiptTaxId', { taxId: r.seller.taxId });
      const seller = [r.seller.legalName, r.seller.address, taxId]
        .filter((s): s is string => s !== null && s !== '')
        .join(' · ');
      const reference = referenceText(speech, r);
      const blocks: Block[] = [
        { p: t('mail.receiptThanks', { sender, number }) },
        {
          rows: [
            [t('mail.receiptNumber'), number],
            [t('mail.receiptDate'), formatDateTime(lang, r.paidAt)],
            ...(reference === null ? [] : [[t('mail.receiptFor'), reference] as const]),
            [paidLabel(speech, r), amount],
          ],
        },
        // What was bought: the link's or invoice's lines (and their totals), else the checkout's description.
        { rows: itemRows(speech, r) },
        { rows: paidRows(speech, r) },
        { button: { label: t('mail.receiptView'), url: linkInLanguage(absolute(ctx.baseUrl, r.receiptUrl), lang) } },
        {
          button: {
            label: t('mail.downloadPdf'),
            url: linkInLanguage(`${ctx.baseUrl}/pay/${r.checkoutId}/receipt.pdf`, lang),
          },
        },
      ];
      if (seller !== '') blocks.push({ small: seller });
      return {
        subject: t('mail.receiptSubject', { number, sender, amount }),
        blocks,
        why: t('mail.receiptWhy', { sender }),
      };
    },
  };
}
