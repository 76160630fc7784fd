import type { Migration } from '../../store/migrate.js';
import * as m032 from './migrations/032-invoices.js';
import * as m034 from './migrations/034-invoice-number-prefixes.js';

// The invoices feature's tables (added to the store's Database below) and the migration that made them.

/** One invoice (migration 032, features/invoices). Amounts are decimal text in `currency`. */
export interface InvoiceTable {
  id: string;
  merchant_id: string;
  status: string;
  /** `<prefix>-000001`, set in the finalize transaction; null while a draft. */
  number: string | null;
  /** The sequence number behind `number` (unique per merchant with it). */
  seq: number | null;
  customer_name: string | null;
  customer_email: string | null;
  currency: string;
  /** JSON `[{description, quantity, unitAmount, taxPercent}]` as the merchant gave them (decimal text). */
  line_items: string;
  subtotal: string;
  tax: string;
  total: string;
  amount_paid: string;
  due_at: string | null;
  memo: string | null;
  metadata: string;
  /** SHA-256 hex of the public page's token: looked up by it. */
  token_hash: string | null;
  /** The token sealed with the master key (the box), so the invoice's `url` can be shown again. */
  token_sealed: string | null;
  finalized_at: string | null;
  paid_at: string | null;
  voided_at: string | null;
  uncollectible_at: string | null;
  sent_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Per merchant and prefix: the last invoice number handed out (locked by finalize; migration 034). */
export interface InvoiceCounterTable {
  merchant_id: string;
  prefix: string;
  last_number: number;
}

/** A public form's nonce once used: the checkout its submit went to (idempotency of POST /i/{token}). */
export interface InvoicePayNonceTable {
  nonce: string;
  invoice_id: string;
  checkout_id: string;
  created_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    invoices: InvoiceTable;
    invoice_number_counters: InvoiceCounterTable;
    invoice_pay_nonces: InvoicePayNonceTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const invoicesMigrations: readonly Migration[] = [
  { version: 32, name: 'invoices', up: m032.up },
  { version: 34, name: 'invoice-number-prefixes', up: m034.up },
];
