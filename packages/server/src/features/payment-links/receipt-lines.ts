import { Decimal, decimalText } from '@hostpay/protocol';
import { type ReceiptLinesSource, singleLine } from '../pay/receipt-lines.js';

/**
 * The items a receipt lists for a checkout made from a payment link (spec/commerce.md,
 * "Receipts"): the link's line items (its price is fixed once created, so they are what was
 * bought), else one line named after the link for its fixed price or for the amount the payer
 * typed (the checkout's amount).
 */
export const paymentLinkReceiptLines: ReceiptLinesSource = async (db, c) => {
  if (c.paymentLinkId === null) return null;
  const link = await db
    .selectFrom('payment_links')
    .select(['name', 'line_items'])
    .where('id', '=', c.paymentLinkId)
    .where('merchant_id', '=', c.merchantId)
    .executeTakeFirst();
  if (link === undefined) return null;
  const items =
    link.line_items === null
      ? null
      : (JSON.parse(link.line_items) as { name: string; quantity: number; unitAmount: string }[]);
  const lines =
    items === null || items.length === 0
      ? [singleLine(link.name, c.amount)]
      : items.map((i) => ({
          description: i.name,
          quantity: String(i.quantity),
          unitAmount: decimalText(i.unitAmount),
          amount: decimalText(new Decimal(i.unitAmount).times(i.quantity)),
          tax: null,
        }));
  return { lines, totals: [], paidLabel: 'Total', reference: null };
};
