import type { AmountMode, DecimalInput } from './decimals.js';
import type { DecimalOf, ReadOptions, WithDecimals } from './types.js';
import type {
  WireCollectEmail,
  WireInvoice,
  WireInvoiceLineItem,
  WireInvoiceStatus,
  WirePaymentLink,
  WirePaymentLinkStatus,
} from './wire.js';

/** The payment link and invoice types of the client (spec commerce.md), amounts as for Wallet. */

/** A payment link's status: active, inactive, expired, used_up (read only: set `active` instead). */
export type PaymentLinkStatus = WirePaymentLinkStatus;
/** Whether the link's page asks for the payer's email: none, optional, required. */
export type CollectEmail = WireCollectEmail;
/**
 * A payment link: `amount`, `minAmount`, `maxAmount` and each line's `quantity` and `unitAmount`
 * as exact strings unless the client was built with amounts: 'number'.
 */
export type PaymentLink<M extends AmountMode = 'string'> = WithDecimals<WirePaymentLink, DecimalOf<M>>;

/** One page of payment links, newest first; `nextCursor` is null on the last page. */
export interface PaymentLinkPage<M extends AmountMode = 'string'> {
  items: PaymentLink<M>[];
  nextCursor: string | null;
}

export interface CreatePaymentLinkParams {
  /** Shown as the page title, 1..200 characters. */
  name: string;
  /** At most 500 characters; also each checkout's description. */
  description?: string | undefined;
  /** Any currency checkouts accept, e.g. EUR. */
  currency: string;
  /**
   * A fixed price (at most the currency's decimals). Leave it and `lineItems` out for a price
   * the payer types, within `minAmount`/`maxAmount`. With `lineItems` it must equal their sum.
   */
  amount?: DecimalInput | undefined;
  /** Lowest amount the payer may type. */
  minAmount?: DecimalInput | undefined;
  /** Highest amount the payer may type. */
  maxAmount?: DecimalInput | undefined;
  /** At most 20 lines; the price is their sum. `quantity` is a whole number 1..1000. */
  lineItems?: { name: string; quantity: number; unitAmount: DecimalInput }[] | undefined;
  /** As checkout create; default every payable wallet. */
  paymentOptions?: { asset: string; chain: string }[] | undefined;
  /** Default `none`. */
  collectEmail?: CollectEmail | undefined;
  /** https; may hold `{CHECKOUT_ID}`. */
  successUrl?: string | undefined;
  /** https; default the link's page. */
  cancelUrl?: string | undefined;
  /** Settled (plus live) checkouts at most; null or absent: unlimited. */
  maxUses?: number | null | undefined;
  /** RFC 3339; null or absent: never. */
  expiresAt?: string | Date | null | undefined;
  /** Default true. */
  active?: boolean | undefined;
  /** At most 20 string pairs, copied to every checkout of the link. */
  metadata?: Record<string, string> | undefined;
}

/** What a PATCH may change (never the price); `null` clears the nullable fields. */
export interface UpdatePaymentLinkParams {
  name?: string | undefined;
  description?: string | null | undefined;
  active?: boolean | undefined;
  maxUses?: number | null | undefined;
  expiresAt?: string | Date | null | undefined;
  successUrl?: string | null | undefined;
  cancelUrl?: string | null | undefined;
  metadata?: Record<string, string> | undefined;
}

export interface ListPaymentLinksParams extends ReadOptions {
  /** Only active (true) or only inactive (false) links. */
  active?: boolean | undefined;
  /** Page size 1..200 (server default 50). */
  limit?: number | undefined;
  /** `nextCursor` of the page before. */
  cursor?: string | undefined;
}

/** Paging of a link's checkouts. */
export interface ListPaymentLinkCheckoutsParams extends ReadOptions {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** An invoice's status: draft, open, partially_paid, paid, void, uncollectible. */
export type InvoiceStatus = WireInvoiceStatus;
/** One line of an invoice with the amount and tax the server computed, amounts as for Wallet. */
export type InvoiceLineItem<M extends AmountMode = 'string'> = WithDecimals<WireInvoiceLineItem, DecimalOf<M>>;
/**
 * An invoice: lines, `subtotal`, `tax`, `total`, `amountPaid`, `amountDue` as exact strings
 * unless the client was built with amounts: 'number'. `number` and `url` are null until finalized.
 */
export type Invoice<M extends AmountMode = 'string'> = WithDecimals<WireInvoice, DecimalOf<M>>;

/** One page of invoices, newest first; `nextCursor` is null on the last page. */
export interface InvoicePage<M extends AmountMode = 'string'> {
  items: Invoice<M>[];
  nextCursor: string | null;
}

/** A line as you give it; the server computes its amount and tax (half-up to the currency's decimals). */
export interface InvoiceLineInput {
  /** 1..500 characters. */
  description: string;
  /** Positive, at most 6 decimals. */
  quantity: DecimalInput;
  /** Price of one in the invoice currency, at least 0. */
  unitAmount: DecimalInput;
  /** Tax rate of this line in percent, 0..100, at most 4 decimals. */
  taxPercent?: DecimalInput | undefined;
}

/** The draft's fields; in an update a field left out keeps its value and `null` clears it. */
export interface InvoiceDraftParams {
  /** `name` at most 200 characters; `email` one plain address (required to `send`). */
  customer?: { name?: string | null | undefined; email?: string | null | undefined } | undefined;
  /** At most 100 lines; in an update they replace every line. At least one to finalize. */
  lineItems?: InvoiceLineInput[] | undefined;
  /** RFC 3339 with an offset (or a Date); null or in the future to finalize. */
  dueAt?: string | Date | null | undefined;
  /** At most 2000 characters, printed on the invoice. */
  memo?: string | null | undefined;
  /** At most 20 string pairs. */
  metadata?: Record<string, string> | undefined;
}

export interface CreateInvoiceParams extends InvoiceDraftParams {
  /** A currency hostpay knows, e.g. EUR. */
  currency: string;
}

export interface UpdateInvoiceParams extends InvoiceDraftParams {
  currency?: string | undefined;
}

export interface ListInvoicesParams extends ReadOptions {
  status?: InvoiceStatus | undefined;
  /** Exact match. */
  customerEmail?: string | undefined;
  /** Page size 1..200 (server default 50). */
  limit?: number | undefined;
  /** `nextCursor` of the page before. */
  cursor?: string | undefined;
}
