import type { Db } from '../../store/store.js';

/** One line of a receipt's items: what was bought. Amounts are exact decimal text in the checkout's currency. */
export interface ReceiptLine {
  description: string;
  /** Decimal text > 0 (a link's are whole numbers; an invoice's may have decimals). */
  quantity: string;
  unitAmount: string;
  /** quantity × unitAmount (the contributor computes it, rounded as its own documents do). */
  amount: string;
  /** The tax on the line, with its rate in percent (an invoice's taxed lines); null when untaxed. */
  tax: { percent: string; amount: string } | null;
}

/** A figure between the lines and the amount paid (an invoice's subtotal, tax, total). */
export interface ReceiptTotal {
  /** The English label; a page in another language says `kind` in it when given. */
  label: string;
  kind?: 'subtotal' | 'tax' | 'invoiceTotal';
  amount: string;
}

/** What a receipt lists of what was bought and what the payment was for. */
export interface ReceiptItems {
  lines: ReceiptLine[];
  /** Shown under the lines, before the amount this checkout paid. */
  totals: ReceiptTotal[];
  /** The label of the amount this checkout paid: `Total` unless it is part of a larger sum. */
  paidLabel: string;
  /** What `paidLabel` means, so a page can say it in the payer's language: the whole sum, or part of it. */
  paid?: 'total' | 'part';
  /** What the payment settles, in words (`Payment of invoice INV-000012`), or null. */
  reference: string | null;
  /** The invoice the payment is for (its number, and the invoice's total when this is part of it), said in the payer's language. */
  invoice?: { number: string; partOf: string | null } | null;
}

/** The checkout a receipt is for, as a contributor sees it. */
export interface ReceiptCheckout {
  id: string;
  merchantId: string;
  paymentLinkId: string | null;
  invoiceId: string | null;
  currency: string;
  amount: string;
  description: string | null;
}

/**
 * A feature that made checkouts (payment links, invoices) says what they sold: the items of
 * checkout `c`, or null when the checkout is none of its own. The first contribution that answers
 * is used; with none, the receipt shows the checkout's description as one line. Reads only,
 * outside any transaction (`db` is the store's connection).
 */
export type ReceiptLinesSource = (db: Db, c: ReceiptCheckout) => Promise<ReceiptItems | null>;

/** One line of `amount` (quantity 1, untaxed): what a receipt lists when nothing itemizes a checkout. */
export const singleLine = (description: string, amount: string): ReceiptLine => ({
  description,
  quantity: '1',
  unitAmount: amount,
  amount,
  tax: null,
});

declare module '../../feature-kit/contributions.js' {
  interface ContributionPoints {
    /** The items a receipt lists for checkouts a feature made (pay/receipt-lines.ts). */
    receiptLines: ReceiptLinesSource;
  }
}
