import type {
  CheckoutWebhookAttempt as ProtocolCheckoutAttempt,
  MerchantSummary,
  Checkout as ProtocolCheckout,
  Invoice as ProtocolInvoice,
  PaymentLink as ProtocolPaymentLink,
  CheckoutMoney as ProtocolCheckoutMoney,
  Payout as ProtocolPayout,
  PayoutDestination as ProtocolDestination,
  SearchHit as ProtocolSearchHit,
  Statement as ProtocolStatement,
  Wallet as ProtocolWallet,
  WebhookEndpoint as ProtocolEndpoint,
} from '@hostpay/protocol';

// Types only (erased at build). The protocol's own types, as the exact JSON parser reads them:
// every JSON number (an exact decimal or a count) arrives as its decimal text.
export type AsRead<T> = T extends number
  ? string
  : T extends (infer U)[]
    ? AsRead<U>[]
    : T extends object
      ? { [K in keyof T]: AsRead<T[K]> }
      : T;

export type Checkout = AsRead<ProtocolCheckout>;
/** GET …/hosted-pay/{id}/refunds: the checkout's money and its refunds. */
export type CheckoutMoney = AsRead<ProtocolCheckoutMoney>;
export type CheckoutItem = Pick<Checkout, 'id' | 'status' | 'amount' | 'currency' | 'orderId' | 'createdAt' | 'url'> &
  Partial<Checkout>;
export type Payout = AsRead<ProtocolPayout>;
export type Destination = AsRead<ProtocolDestination>;

/** GET /api/v1/cp/summary. */
export type Summary = AsRead<MerchantSummary>;
/** A delivery attempt of one of a checkout's events (GET …/hosted-pay/{id}/webhook-deliveries). */
export type CheckoutAttempt = AsRead<ProtocolCheckoutAttempt>;

export type Wallet = AsRead<ProtocolWallet>;
export type WebhookEndpoint = AsRead<ProtocolEndpoint>;

export interface WebhookAttempt {
  id: string;
  eventId: string;
  eventType: string;
  attemptedAt: string;
  statusCode: string | null;
  error: string | null;
  latencyMs: string;
  succeeded: boolean;
  endpointId?: string;
}

export interface Event {
  id: string;
  type: string;
  createdAt: string;
  sequence: string;
  data: { object: { id?: string } & Record<string, unknown> };
}

/** GET /api/v1/cp/reports/statement: the month per wallet. */
export type Statement = AsRead<ProtocolStatement>;
export type StatementLine = Statement['wallets'][number];
/** GET /api/v1/cp/search: one hit. */
export type SearchHit = AsRead<ProtocolSearchHit>;
/** A payment link (GET /api/v1/cp/payment-links): `url` is its public page /l/{slug}. */
export type PaymentLink = AsRead<ProtocolPaymentLink>;
/** An invoice (GET /api/v1/cp/invoices): `url` is its public page /i/{token} once finalized. */
export type Invoice = AsRead<ProtocolInvoice>;
