/** The checkout wire types (protocol checkout.ts), written out as wire.ts explains. */

/** A checkout's status (protocol CHECKOUT_STATUS_VALUES). */
export type WireCheckoutStatus =
  | 'open'
  | 'underpaid'
  | 'processing'
  | 'settled'
  | 'expired'
  | 'canceled'
  | 'needs_review'
  | 'invalid';

/** One way to pay a checkout: an asset on a chain, with its own deposit address. */
export interface WirePaymentOption {
  asset: string;
  chain: string;
  network: string;
  tokenContract: string | null;
  address: string;
  amountDue: number;
  rate: number;
  rateSource: string | null;
  rateAt: string | null;
  rateSpreadPercent: number | null;
  received: number;
  remaining: number;
  fee: number;
  netAmount: number;
  confirmationsRequired: number;
}

/** A transfer seen on one of the checkout's addresses. */
export interface WirePayment {
  id: string;
  chain: string;
  asset: string;
  txHash: string;
  index: number;
  address: string;
  amount: number;
  confirmations: number;
  confirmed: boolean;
  retracted: boolean;
  blockTime: string | null;
  detectedAt: string;
}

export interface WireTimelineEntry {
  status: string;
  reason: string | null;
  at: string;
}

/** A hosted checkout (protocol Checkout). */
export interface WireCheckout {
  id: string;
  status: WireCheckoutStatus;
  reason: string | null;
  amount: number;
  currency: string;
  fee: Record<string, unknown>;
  orderId: string | null;
  description: string | null;
  metadata: Record<string, string>;
  url: string;
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  paymentOptions: WirePaymentOption[];
  payments: WirePayment[];
  timeline: WireTimelineEntry[];
  /** The payment link that made it. */
  paymentLinkId: string | null;
  /** The invoice it pays. */
  invoiceId: string | null;
  customerEmail: string | null;
  /** RCPT-000001…, per merchant, assigned when it settles. */
  receiptNumber: string | null;
  /** `<public base>/pay/{id}/receipt` once settled. */
  receiptUrl: string | null;
}

/** The create body (protocol CreateCheckoutBody): amounts as JSON numbers or decimal strings. */
export interface WireCreateCheckoutBody {
  amount: string | number;
  currency: string;
  orderId?: string;
  description?: string;
  paymentOptions?: { asset: string; chain: string }[];
  expiresIn?: number;
  successUrl?: string;
  cancelUrl?: string;
  metadata?: Record<string, string>;
  customerEmail?: string;
}

/** The sandbox simulate-payment body (protocol SimulatePaymentBody). */
export interface WireSimulatePaymentBody {
  asset: string;
  chain: string;
  amount?: string | number;
  confirmations?: number;
}

/** The checkout paths (protocol CHECKOUT_PATHS); `:id` is the checkout id. */
export const CHECKOUT_PATHS = {
  checkouts: '/api/v1/cp/psp/hosted-pay',
  checkout: '/api/v1/cp/psp/hosted-pay/:id',
  cancel: '/api/v1/cp/psp/hosted-pay/:id/cancel',
  simulatePayment: '/api/v1/cp/psp/hosted-pay/:id/simulate-payment',
} as const;
