/**
 * What the payment-link and invoice forms send: the fields as typed, turned into the merchant
 * API's bodies (docs/payment-links.md, docs/invoices.md). Amounts stay the text typed (the server
 * reads them exactly); an empty optional field is left out on create and sent as null on edit,
 * which clears it. Times are UTC, as every time the dashboard shows.
 */

export type Pricing = 'fixed' | 'items' | 'open';
export type CollectEmail = 'none' | 'optional' | 'required';

export interface LinkLine {
  name: string;
  quantity: string;
  unitAmount: string;
}

export interface LinkForm {
  name: string;
  description: string;
  currency: string;
  pricing: Pricing;
  amount: string;
  minAmount: string;
  maxAmount: string;
  lines: LinkLine[];
  collectEmail: CollectEmail;
  successUrl: string;
  cancelUrl: string;
  maxUses: string;
  /** YYYY-MM-DDTHH:MM, UTC (a datetime-local field read as UTC). */
  expiresAt: string;
}

export const emptyLinkForm = (): LinkForm => ({
  name: '',
  description: '',
  currency: 'EUR',
  pricing: 'fixed',
  amount: '',
  minAmount: '',
  maxAmount: '',
  lines: [{ name: '', quantity: '1', unitAmount: '' }],
  collectEmail: 'none',
  successUrl: '',
  cancelUrl: '',
  maxUses: '',
  expiresAt: '',
});

/** A datetime-local value (minutes, no zone) as UTC, and back. */
const utcFromInput = (v: string): string | null => (v.trim() === '' ? null : `${v.trim()}:00.000Z`);
const inputFromUtc = (iso: string | null | undefined): string => (iso ? iso.slice(0, 16) : '');

/** A date field (YYYY-MM-DD) as the end of that UTC day: due on a day means payable all of it. */
const dueFromDate = (d: string): string | null => (d.trim() === '' ? null : `${d.trim()}T23:59:59.000Z`);
const dateFromDue = (iso: string | null | undefined): string => (iso ? iso.slice(0, 10) : '');

/** A whole number typed (max uses, a line's quantity); anything else goes as typed for the server to refuse. */
const count = (v: string): number | string => (/^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : v.trim());

function put(body: Record<string, unknown>, key: string, value: string): void {
  if (value.trim() !== '') body[key] = value.trim();
}

/** POST /api/v1/cp/payment-links. */
export function linkCreateBody(f: LinkForm): Record<string, unknown> {
  const body: Record<string, unknown> = { name: f.name.trim(), currency: f.currency.trim() };
  put(body, 'description', f.description);
  if (f.pricing === 'fixed') body.amount = f.amount.trim();
  if (f.pricing === 'items')
    body.lineItems = f.lines.map((l) => ({
      name: l.name.trim(),
      quantity: count(l.quantity),
      unitAmount: l.unitAmount.trim(),
    }));
  if (f.pricing === 'open') {
    put(body, 'minAmount', f.minAmount);
    put(body, 'maxAmount', f.maxAmount);
  }
  if (f.collectEmail !== 'none') body.collectEmail = f.collectEmail;
  put(body, 'successUrl', f.successUrl);
  put(body, 'cancelUrl', f.cancelUrl);
  if (f.maxUses.trim() !== '') body.maxUses = count(f.maxUses);
  const expires = utcFromInput(f.expiresAt);
  if (expires !== null) body.expiresAt = expires;
  return body;
}

/** What PATCH may change on a link (the price is fixed once created). */
export interface LinkEdit {
  name: string;
  description: string;
  maxUses: string;
  expiresAt: string;
  successUrl: string;
  cancelUrl: string;
}

export interface LinkFields {
  name: string;
  description: string | null;
  maxUses: string | null;
  expiresAt: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
}

export const linkEditOf = (l: LinkFields): LinkEdit => ({
  name: l.name,
  description: l.description ?? '',
  maxUses: l.maxUses ?? '',
  expiresAt: inputFromUtc(l.expiresAt),
  successUrl: l.successUrl ?? '',
  cancelUrl: l.cancelUrl ?? '',
});

/**
 * PATCH /api/v1/cp/payment-links/{id}: only the fields that changed (an expiry already past, left
 * alone, is not sent back to be refused); an emptied one is null.
 */
export function linkPatchBody(before: LinkEdit, after: LinkEdit): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  if (after.name.trim() !== before.name.trim()) body.name = after.name.trim();
  if (after.description !== before.description) body.description = text(after.description);
  if (after.maxUses !== before.maxUses) body.maxUses = after.maxUses.trim() === '' ? null : count(after.maxUses);
  if (after.expiresAt !== before.expiresAt) body.expiresAt = utcFromInput(after.expiresAt);
  if (after.successUrl !== before.successUrl) body.successUrl = text(after.successUrl);
  if (after.cancelUrl !== before.cancelUrl) body.cancelUrl = text(after.cancelUrl);
  return body;
}

export interface InvoiceLine {
  description: string;
  quantity: string;
  unitAmount: string;
  taxPercent: string;
}

export interface InvoiceForm {
  currency: string;
  customerName: string;
  customerEmail: string;
  lines: InvoiceLine[];
  memo: string;
  /** YYYY-MM-DD, UTC. */
  dueDate: string;
}

export const emptyInvoiceLine = (): InvoiceLine => ({ description: '', quantity: '1', unitAmount: '', taxPercent: '' });
export const emptyInvoiceForm = (): InvoiceForm => ({
  currency: 'EUR',
  customerName: '',
  customerEmail: '',
  lines: [emptyInvoiceLine()],
  memo: '',
  dueDate: '',
});

export interface InvoiceFields {
  currency: string;
  customer: { name: string | null; email: string | null };
  lineItems: { description: string; quantity: string; unitAmount: string; taxPercent: string | null }[];
  memo: string | null;
  dueAt: string | null;
}

export const invoiceFormOf = (i: InvoiceFields): InvoiceForm => ({
  currency: i.currency,
  customerName: i.customer.name ?? '',
  customerEmail: i.customer.email ?? '',
  lines:
    i.lineItems.length === 0
      ? [emptyInvoiceLine()]
      : i.lineItems.map((l) => ({
          description: l.description,
          quantity: l.quantity,
          unitAmount: l.unitAmount,
          taxPercent: l.taxPercent ?? '',
        })),
  memo: i.memo ?? '',
  dueDate: dateFromDue(i.dueAt),
});

/**
 * POST /api/v1/cp/invoices and PATCH on a draft: the whole draft each time (PATCH replaces the
 * lines; null clears the customer's fields, the memo and the due date). A line left wholly empty
 * is dropped: a draft may have none.
 */
export function invoiceBody(f: InvoiceForm): Record<string, unknown> {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  const lines = f.lines.filter((l) => l.description.trim() !== '' || l.unitAmount.trim() !== '');
  return {
    currency: f.currency.trim(),
    customer: { name: text(f.customerName), email: text(f.customerEmail) },
    lineItems: lines.map((l) => ({
      description: l.description.trim(),
      quantity: l.quantity.trim() === '' ? '1' : l.quantity.trim(),
      unitAmount: l.unitAmount.trim(),
      ...(l.taxPercent.trim() === '' ? {} : { taxPercent: l.taxPercent.trim() }),
    })),
    memo: text(f.memo),
    dueAt: dueFromDate(f.dueDate),
  };
}
