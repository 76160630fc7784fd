import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: the public page's credential (`/i/{token}`); the id alone opens nothing. */
export const newInvoiceToken = (): string => randomBytes(32).toString('base64url');

/** What the store looks a token up by: its SHA-256. */
export const invoiceTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** A token as newInvoiceToken writes it; anything else is not looked up. */
export const isInvoiceTokenShaped = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The box's associated data for an invoice's sealed token (master-key/sealed-columns.ts re-seals it). */
export const invoiceTokenOwner = (id: string): string => `invoice_token:${id}`;

export const invoicePagePath = (token: string): string => `/i/${token}`;

/** The number under the merchant's prefix: `INV-000001`. */
export const invoiceNumber = (prefix: string | null, seq: number): string =>
  `${prefix ?? DEFAULT_INVOICE_PREFIX}-${String(seq).padStart(6, '0')}`;

/** A merchant without an `invoicePrefix` setting numbers under this. */
export const DEFAULT_INVOICE_PREFIX = 'INV';
