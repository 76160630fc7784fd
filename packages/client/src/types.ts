import type {
  WireCheckout,
  WireCheckoutStatus,
  WireFeePreview,
  WirePayment,
  WirePaymentOption,
  WireTimeResult,
  WireTimelineEntry,
  WireTokenResult,
  WireCheckoutWebhookAttempt,
  WireSummary,
  WireWallet,
} from './wire.js';
import type { AmountMode, DecimalField, DecimalInput } from './decimals.js';

/** `T` with every decimal field typed as `D` (string or number), nested objects included. */
export type WithDecimals<T, D> = T extends readonly (infer U)[]
  ? WithDecimals<U, D>[]
  : T extends object
    ? { [K in keyof T]: K extends DecimalField ? (null extends T[K] ? D | null : D) : WithDecimals<T[K], D> }
    : T;

/** The type decimal fields take in a given amount mode. */
export type DecimalOf<M extends AmountMode> = M extends 'number' ? number : string;

/** A wallet (interface §2.2), amounts as exact strings unless the client was built with amounts: 'number'. */
export type Wallet<M extends AmountMode = 'string'> = WithDecimals<WireWallet, DecimalOf<M>>;
/** A fee preview (interface §2.3 plus the computed figures), amounts as for Wallet. */
export type FeePreview<M extends AmountMode = 'string'> = WithDecimals<WireFeePreview, DecimalOf<M>>;
/** A bearer token issued by POST /api/v1/auth/token. */
export type TokenResult = WireTokenResult;
/** The server clock from GET /api/v1/time. */
export type TimeResult = WireTimeResult;

/** Options every call accepts. */
export interface CallOptions {
  /** Aborts the call (and its retries); the call rejects with a HostpayError coded ABORTED. */
  signal?: AbortSignal | undefined;
  /** Time budget for this call, retries and waits included; overrides the client's timeoutMs. */
  timeoutMs?: number | undefined;
}

export interface ListWalletsParams extends CallOptions {
  /** Act for this sub-merchant (platform keys granted it only). */
  merchantId?: string | undefined;
}

export interface PreviewFeesParams extends CallOptions {
  /** The checkout amount: positive, at most 18 fractional digits, at most 10^15. */
  amount: DecimalInput;
  /** Currency or asset code, case-insensitive (e.g. EUR, USDT). */
  currency: string;
  /** Act for this sub-merchant (platform keys granted it only). */
  merchantId?: string | undefined;
}

export interface IssueTokenParams extends CallOptions {
  /** Token lifetime in seconds, 60..86400; the server's default (1 h) when left out. */
  expiresIn?: number | undefined;
  /** Narrow the token to these scopes of the key; all of them when left out. */
  scope?: string[] | undefined;
}

/** A checkout's status: open, underpaid, processing, settled, expired, canceled, needs_review, invalid. */
export type CheckoutStatus = WireCheckoutStatus;
/** One way to pay a checkout (asset on a chain, its address, amountDue, received, ...), amounts as for Wallet. */
export type PaymentOption<M extends AmountMode = 'string'> = WithDecimals<WirePaymentOption, DecimalOf<M>>;
/** A transfer seen on one of a checkout's addresses, amount as for Wallet. */
export type Payment<M extends AmountMode = 'string'> = WithDecimals<WirePayment, DecimalOf<M>>;
/** One entry of a checkout's timeline: a status, its reason, when. */
export type TimelineEntry = WireTimelineEntry;

/**
 * A hosted checkout, amounts as for Wallet. `fee` is the fee preview of the checkout's amount and
 * currency, field for field (the wire says only "an object"; the contract fixes its fields).
 */
export interface Checkout<M extends AmountMode = 'string'>
  extends Omit<WithDecimals<WireCheckout, DecimalOf<M>>, 'fee'> {
  fee: FeePreview<M>;
}

/**
 * The dashboard home's figures (GET /api/v1/cp/summary): balances per wallet, the volume settled
 * today and this month (UTC) per currency, and the checkouts needing attention; amounts as for Wallet.
 */
export interface Summary<M extends AmountMode = 'string'>
  extends Omit<WithDecimals<WireSummary, DecimalOf<M>>, 'attention'> {
  attention: Checkout<M>[];
}

/** A webhook delivery attempt of one of a checkout's events (no decimal fields). */
export type CheckoutWebhookAttempt = WireCheckoutWebhookAttempt;

/** One page of a checkout's delivery attempts, newest first; `nextCursor` is null on the last page. */
export interface CheckoutWebhookAttemptPage {
  items: CheckoutWebhookAttempt[];
  nextCursor: string | null;
}

/** Paging of a checkout's delivery attempts. */
export interface ListCheckoutWebhookDeliveriesParams extends ReadOptions {
  /** Page size 1..200 (server default 50). */
  limit?: number | undefined;
  /** `nextCursor` of the page before. */
  cursor?: string | undefined;
}

/** One page of checkouts, newest first; `nextCursor` is null on the last page. */
export interface CheckoutPage<M extends AmountMode = 'string'> {
  items: Checkout<M>[];
  nextCursor: string | null;
}

/** Options of the POST calls: the Idempotency-Key, generated (a random UUID) when left out. */
export interface WriteOptions extends CallOptions {
  /**
   * 1-128 of `A-Z a-z 0-9 _ . : -`. The same key with the same body within 24 h gets the first
   * answer again instead of acting twice; the client sends one key for all retries of a call.
   */
  idempotencyKey?: string | undefined;
  /** Act for this sub-merchant (platform keys granted it only). */
  merchantId?: string | undefined;
}

/** Options of the GET calls. */
export interface ReadOptions extends CallOptions {
  /** Act for this sub-merchant (platform keys granted it only). */
  merchantId?: string | undefined;
}

export interface CreateCheckoutParams {
  /** Positive, at most 18 fractional digits, at most 10^15; sent as exact decimal text. */
  amount: DecimalInput;
  /** Any currency the fee preview accepts, e.g. EUR. */
  currency: string;
  /** Your order reference, at most 64 characters, not unique. */
  orderId?: string | undefined;
  /** Shown to the payer on the page, at most 500 characters. */
  description?: string | undefined;
  /** The assets and chains offered; default every active wallet that can be priced. */
  paymentOptions?: { asset: string; chain: string }[] | undefined;
  /** Seconds until the checkout expires and its rates unlock, 300..86400 (default 900). */
  expiresIn?: number | undefined;
  /** Where the page sends the payer once paid: https (http to loopback only on a sandbox). */
  successUrl?: string | undefined;
  /** Where "cancel and return" goes: https (http to loopback only on a sandbox). */
  cancelUrl?: string | undefined;
  /** At most 20 string pairs; keys at most 40 characters, values at most 500. */
  metadata?: Record<string, string> | undefined;
  /** The payer's email (one plain address): the receipt is mailed to it. */
  customerEmail?: string | undefined;
}

export interface ListCheckoutsParams extends ReadOptions {
  status?: CheckoutStatus | undefined;
  orderId?: string | undefined;
  /** Checkouts made by this payment link. */
  paymentLinkId?: string | undefined;
  /** Checkouts paying this invoice. */
  invoiceId?: string | undefined;
  /** Created at or after (ISO 8601 text or a Date). */
  createdFrom?: string | Date | undefined;
  /** Created before (ISO 8601 text or a Date). */
  createdTo?: string | Date | undefined;
  /** Page size 1..200 (server default 50). */
  limit?: number | undefined;
  /** `nextCursor` of the page before. */
  cursor?: string | undefined;
}

export interface SimulatePaymentParams {
  asset: string;
  chain: string;
  /** Default: what is still due on that option. */
  amount?: DecimalInput | undefined;
  /** Default: the chain's requirement, so the payment confirms at once. */
  confirmations?: number | undefined;
}
