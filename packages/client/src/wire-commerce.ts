/** The payment link and invoice wire types (protocol payment-links.ts, invoices.ts), written out as wire.ts explains. */

/** A payment link's status (protocol PAYMENT_LINK_STATUS_VALUES); read only. */
export type WirePaymentLinkStatus = 'active' | 'inactive' | 'expired' | 'used_up';
/** Whether the link's page asks the payer for an email (protocol COLLECT_EMAIL_VALUES). */
export type WireCollectEmail = 'none' | 'optional' | 'required';

/** One line of a payment link: a whole quantity 1..1000 of a unit price. */
export interface WirePaymentLinkLineItem {
  name: string;
  quantity: number;
  unitAmount: number;
}

/** A reusable page, `<public base>/l/{slug}`, that makes a fresh checkout for each payer (protocol PaymentLink). */
export interface WirePaymentLink {
  id: string;
  slug: string;
  url: string;
  name: string;
  description: string | null;
  currency: string;
  amount: number | null;
  minAmount: number | null;
  maxAmount: number | null;
  lineItems: WirePaymentLinkLineItem[] | null;
  paymentOptions: { asset: string; chain: string }[] | null;
  collectEmail: WireCollectEmail;
  successUrl: string | null;
  /** The link's own page unless set. */
  cancelUrl: string;
  maxUses: number | null;
  uses: number;
  expiresAt: string | null;
  active: boolean;
  status: WirePaymentLinkStatus;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** The create body (protocol CreatePaymentLinkBody): amounts as JSON numbers or decimal strings. */
export interface WireCreatePaymentLinkBody {
  name: string;
  description?: string | null;
  currency: string;
  amount?: string | number | null;
  minAmount?: string | number | null;
  maxAmount?: string | number | null;
  lineItems?: { name: string; quantity: number; unitAmount: string | number }[] | null;
  paymentOptions?: { asset: string; chain: string }[] | null;
  collectEmail?: WireCollectEmail;
  successUrl?: string | null;
  cancelUrl?: string | null;
  maxUses?: number | null;
  expiresAt?: string | null;
  active?: boolean;
  metadata?: Record<string, string>;
}

/** The PATCH body (protocol UpdatePaymentLinkBody): the price is fixed once created. */
export interface WireUpdatePaymentLinkBody {
  name?: string;
  description?: string | null;
  active?: boolean;
  maxUses?: number | null;
  expiresAt?: string | null;
  successUrl?: string | null;
  cancelUrl?: string | null;
  metadata?: Record<string, string>;
}

/** The payment link paths (protocol PAYMENT_LINK_PATHS); `:id` is the link id. */
export const PAYMENT_LINK_PATHS = {
  links: '/api/v1/cp/payment-links',
  link: '/api/v1/cp/payment-links/:id',
  checkouts: '/api/v1/cp/payment-links/:id/checkouts',
} as const;

/** An invoice's status (protocol INVOICE_STATUS_VALUES). */
export type WireInvoiceStatus = 'draft' | 'open' | 'partially_paid' | 'paid' | 'void' | 'uncollectible';

/** One line of an invoice, with its amount and tax as the server rounded them (protocol InvoiceLineItem). */
export interface WireInvoiceLineItem {
  description: string;
  quantity: number;
  unitAmount: number;
  taxPercent: number | null;
  amount: number;
  tax: number;
}

/** An invoice (protocol Invoice). */
export interface WireInvoice {
  id: string;
  number: string | null;
  status: WireInvoiceStatus;
  customer: { name: string | null; email: string | null };
  lineItems: WireInvoiceLineItem[];
  subtotal: number;
  tax: number;
  total: number;
  currency: string;
  amountPaid: number;
  amountDue: number;
  dueAt: string | null;
  memo: string | null;
  metadata: Record<string, string>;
  url: string | null;
  checkoutIds: string[];
  finalizedAt: string | null;
  paidAt: string | null;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A line as the create and PATCH bodies take it (protocol InvoiceLineInput). */
export interface WireInvoiceLineInput {
  description: string;
  quantity: string | number;
  unitAmount: string | number;
  taxPercent?: string | number;
}

/** The create body (protocol CreateInvoiceBody). */
export interface WireCreateInvoiceBody {
  currency: string;
  customer?: { name?: string | null; email?: string | null };
  lineItems?: WireInvoiceLineInput[];
  dueAt?: string | null;
  memo?: string | null;
  metadata?: Record<string, string>;
}

/** The PATCH body of a draft (protocol UpdateInvoiceBody). */
export interface WireUpdateInvoiceBody {
  currency?: string;
  customer?: { name?: string | null; email?: string | null };
  lineItems?: WireInvoiceLineInput[];
  dueAt?: string | null;
  memo?: string | null;
  metadata?: Record<string, string>;
}

/** The invoice paths (protocol INVOICE_PATHS); `:id` is the invoice id. */
export const INVOICE_PATHS = {
  invoices: '/api/v1/cp/invoices',
  invoice: '/api/v1/cp/invoices/:id',
  finalize: '/api/v1/cp/invoices/:id/finalize',
  void: '/api/v1/cp/invoices/:id/void',
  markUncollectible: '/api/v1/cp/invoices/:id/mark-uncollectible',
  send: '/api/v1/cp/invoices/:id/send',
  pdf: '/api/v1/cp/invoices/:id/pdf',
} as const;
