import { Decimal, decimalText } from '@hostpay/protocol';
import type { ReceiptLinesSource } from '../pay/receipt-lines.js';
import { storedLines } from './view.js';

/**
 * The items a receipt lists for a checkout of an invoice (spec/commerce.md, "Receipts"): the
 * invoice's lines with their tax, its subtotal and tax, and which invoice the payment is for. A
 * checkout for less than the invoice's total (what was still due after an earlier payment) is a
 * part payment: the receipt says so and shows the invoice's total above the amount this one paid.
 */
export const invoiceReceiptLines: ReceiptLinesSource = async (db, c) => {
  if (c.invoiceId === null) return null;
  const inv = await db
    .selectFrom('invoices')
    .select(['number', 'line_items', 'subtotal', 'tax', 'total'])
    .where('id', '=', c.invoiceId)
    .where('merchant_id', '=', c.merchantId)
    .executeTakeFirst();
  if (inv === undefined || inv.number === null) return null;
  const total = decimalText(inv.total);
  const part = new Decimal(c.amount).lt(inv.total);
  const lines = storedLines(inv).map((l) => ({
    description: l.description,
    quantity: decimalText(l.quantity),
    unitAmount: decimalText(l.unitAmount),
    amount: decimalText(l.amount),
    tax: l.taxPercent === null ? null : { percent: decimalText(l.taxPercent), amount: decimalText(l.tax) },
  }));
  // Subtotal and tax only when a line has a tax rate: otherwise they repeat the total.
  const taxed = lines.some((l) => l.tax !== null);
  return {
    lines,
    totals: [
      ...(taxed
        ? [
            { label: 'Subtotal', kind: 'subtotal' as const, amount: decimalText(inv.subtotal) },
            { label: 'Tax', kind: 'tax' as const, amount: decimalText(inv.tax) },
          ]
        : []),
      ...(part ? [{ label: 'Invoice total', kind: 'invoiceTotal' as const, amount: total }] : []),
    ],
    paidLabel: part ? 'This payment' : 'Total',
    paid: part ? 'part' : 'total',
    invoice: { number: inv.number, partOf: part ? total : null },
    reference: part
      ? `Invoice ${inv.number} (part payment of its total of ${total} ${c.currency})`
      : `Invoice ${inv.number}`,
  };
};
