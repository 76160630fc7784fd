/** The box's associated data for an invoice's sealed token (master-key/sealed-columns.ts re-seals it). */
export const invoiceTokenOwner = (id: string): string => `invoice_token:${id}`;

export const invoicePagePath = (token: string): string => `/i/${token}`;

/** The number under the merchant's prefix: `INV-000001`. */
export const invoiceNumber = (prefix: string | null, seq: number): string =>
  `${prefix ?? DEFAULT_INVOICE_PREFIX}-${String(seq).padStart(6, '0')}`;

/** A merchant without an `invoicePrefix` setting numbers under this. */
export const DEFAULT_INVOICE_PREFIX = 'INV';
