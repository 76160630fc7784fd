import type { CreateInvoiceBody, UpdateInvoiceBody } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import { isoTime, ISO_TIME_HELP } from '../../http/iso-time.js';
import { checkCustomerEmail, LIMITS } from '../checkouts/create-input.js';
import { checkLines, priceLines } from './money.js';
import type { InvoiceRow } from './view.js';

/** The columns a draft's create or PATCH sets (everything but identity, state and times). */
export type DraftColumns = Pick<
  InvoiceRow,
  | 'customer_name'
  | 'customer_email'
  | 'currency'
  | 'line_items'
  | 'subtotal'
  | 'tax'
  | 'total'
  | 'due_at'
  | 'memo'
  | 'metadata'
>;

const bad = (field: string, message: string): never => {
  throw new HostpayError('INVALID_BODY', `${field} ${message}`, { field });
};

function checkMetadata(metadata: Record<string, string>): string {
  const pairs = Object.entries(metadata);
  if (pairs.length > LIMITS.metadataPairs) bad('metadata', `may hold at most ${LIMITS.metadataPairs} pairs`);
  for (const [k, v] of pairs) {
    if (k.length === 0 || k.length > LIMITS.metadataKey)
      bad('metadata', `keys must be 1 to ${LIMITS.metadataKey} characters`);
    if (v.length > LIMITS.metadataValue) bad('metadata', `values must be at most ${LIMITS.metadataValue} characters`);
  }
  return JSON.stringify(Object.fromEntries(pairs));
}

function checkDueAt(text: string | null): string | null {
  if (text === null) return null;
  const at = isoTime(text);
  if (at === null) bad('dueAt', `must be ${ISO_TIME_HELP}`);
  return at;
}

const trimmed = (text: string | null | undefined): string | null => {
  const t = text?.trim() ?? '';
  return t === '' ? null : t;
};

/**
 * A draft's columns from a create (`before` undefined) or a PATCH over `before`: fields left out
 * keep their value, `null` clears. `decimalsOf` gives the currency's decimals (422
 * UNSUPPORTED_CURRENCY for one hostpay does not know). Totals are recomputed every time.
 */
export async function draftColumns(
  body: CreateInvoiceBody | UpdateInvoiceBody,
  before: DraftColumns | undefined,
  decimalsOf: (currency: string) => Promise<number>,
): Promise<DraftColumns> {
  const currency = (body.currency ?? before?.currency ?? '').toUpperCase();
  if (currency === '') bad('currency', 'is required, e.g. "EUR"');
  const decimals = await decimalsOf(currency);
  const lines =
    body.lineItems === undefined
      ? checkLines(before === undefined ? [] : JSON.parse(before.line_items), decimals)
      : checkLines(body.lineItems, decimals);
  const totals = priceLines(lines, decimals);
  const customer = body.customer;
  const name = customer?.name === undefined ? (before?.customer_name ?? null) : trimmed(customer.name);
  if (name !== null && name.length > 200) bad('customer.name', 'must be at most 200 characters');
  const email =
    customer?.email === undefined
      ? (before?.customer_email ?? null)
      : customer.email === null || customer.email.trim() === ''
        ? null
        : checkCustomerEmail(customer.email, 'customer.email');
  const memo = body.memo === undefined ? (before?.memo ?? null) : trimmed(body.memo);
  return {
    currency,
    customer_name: name,
    customer_email: email,
    line_items: JSON.stringify(totals.lines),
    subtotal: totals.subtotal,
    tax: totals.tax,
    total: totals.total,
    due_at: body.dueAt === undefined ? (before?.due_at ?? null) : checkDueAt(body.dueAt),
    memo,
    metadata: body.metadata === undefined ? (before?.metadata ?? '{}') : checkMetadata(body.metadata),
  };
}
