import { Decimal, decimalText, jsonDecimal, type Invoice } from '@hostpay/protocol';
import type { Speech } from '../../i18n/messages.js';
import type { InvoiceTable } from './tables.js';
import type { PricedLine } from './money.js';

export type InvoiceRow = InvoiceTable;

const num = (text: string) => jsonDecimal(decimalText(text));

/**
 * What is still to pay: total − amountPaid, at least 0 (a draft's is its total, as it will be once
 * finalized); nothing once void. Only an open or partly paid invoice can be paid (public.ts).
 */
export function amountDueOf(row: Pick<InvoiceRow, 'status' | 'total' | 'amount_paid'>): Decimal {
  if (row.status === 'void') return new Decimal(0);
  return Decimal.max(new Decimal(row.total).minus(row.amount_paid), 0);
}

export const storedLines = (row: Pick<InvoiceRow, 'line_items'>): PricedLine[] =>
  JSON.parse(row.line_items) as PricedLine[];

/** The wire object (spec/commerce.md, "Invoices"), written with exact decimals by writeExactJson. */
export function invoiceView(
  row: InvoiceRow,
  checkoutIds: string[],
  url: string | null,
): Record<keyof Invoice, unknown> {
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    customer: { name: row.customer_name, email: row.customer_email },
    lineItems: storedLines(row).map((l) => ({
      description: l.description,
      quantity: num(l.quantity),
      unitAmount: num(l.unitAmount),
      taxPercent: l.taxPercent === null ? null : num(l.taxPercent),
      amount: num(l.amount),
      tax: num(l.tax),
    })),
    subtotal: num(row.subtotal),
    tax: num(row.tax),
    total: num(row.total),
    currency: row.currency,
    amountPaid: num(row.amount_paid),
    amountDue: jsonDecimal(amountDueOf(row).toFixed()),
    dueAt: row.due_at,
    memo: row.memo,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    url,
    checkoutIds,
    finalizedAt: row.finalized_at,
    paidAt: row.paid_at,
    sentAt: row.sent_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const STATUS_KEYS = {
  open: 'invoice.statusOpen',
  partially_paid: 'invoice.statusPartiallyPaid',
  paid: 'invoice.statusPaid',
  void: 'invoice.statusVoid',
  uncollectible: 'invoice.statusUncollectible',
} as const;

/** An invoice's status as its payer reads it (`Partially paid`), in `s`'s language. */
export const statusText = (s: Speech, status: string): string =>
  status in STATUS_KEYS ? s.t(STATUS_KEYS[status as keyof typeof STATUS_KEYS]) : status;
