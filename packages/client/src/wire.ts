/**
 * The wire types the client speaks, written out here so the published declarations stand alone:
 * the client has no dependencies, so its .d.ts files may not import @hostpay/protocol.
 * test/wire-types.test.ts holds each one equal to the protocol's schema type, so they cannot drift.
 */
import type { WireCheckout } from './wire-checkout.js';

export * from './wire-checkout.js';
export * from './wire-payout.js';
export * from './wire-commerce.js';

/** Stable machine codes the server answers with (protocol ERROR_STATUS). */
export type ErrorCode =
  | 'INVALID_AMOUNT'
  | 'INVALID_CURRENCY'
  | 'INVALID_QUERY'
  | 'INVALID_HEADER'
  | 'INVALID_BODY'
  | 'INVALID_URL'
  | 'INVALID_EMAIL'
  | 'MALFORMED_REQUEST'
  | 'MISSING_HEADER'
  | 'UNKNOWN_API_KEY'
  | 'INVALID_TIMESTAMP'
  | 'TIMESTAMP_OUT_OF_WINDOW'
  | 'INVALID_SIGNATURE'
  | 'SIGNATURE_V2_REQUIRED'
  | 'INVALID_TOKEN'
  | 'TOKEN_EXPIRED'
  | 'TOKEN_KEY_MISMATCH'
  | 'MERCHANT_FORBIDDEN'
  | 'KEY_REVOKED'
  | 'KEY_EXPIRED'
  | 'SCOPE_MISSING'
  | 'IP_NOT_ALLOWED'
  | 'MERCHANT_SUSPENDED'
  | 'CSRF_TOKEN_INVALID'
  | 'CSRF_FAILED'
  | 'ROLE_FORBIDDEN'
  | 'SESSION_REQUIRED'
  | 'SIGN_IN_FAILED'
  | 'TOTP_INVALID'
  | 'LINK_INVALID'
  | 'TEAM_CONFLICT'
  | 'ACCOUNT_LOCKED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'REQUEST_TIMEOUT'
  | 'IDEMPOTENCY_CONFLICT'
  | 'KEY_ALREADY_ROTATED'
  | 'CHECKOUT_STATE_CONFLICT'
  | 'PAYOUT_STATE_CONFLICT'
  | 'WALLET_INACTIVE'
  | 'SIGNATURE_REUSED'
  | 'INVOICE_STATE_CONFLICT'
  | 'PAYMENT_LINK_UNAVAILABLE'
  | 'CUSTOMER_EMAIL_MISSING'
  | 'INVALID_ADDRESS'
  | 'PAYOUT_LIMIT'
  | 'DESTINATION_NOT_ACTIVE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'EXPECTATION_FAILED'
  | 'UNSUPPORTED_CURRENCY'
  | 'NO_FEE_SCHEDULE'
  | 'NO_RATE'
  | 'INSUFFICIENT_FUNDS'
  | 'REFUND_TOO_LARGE'
  | 'NO_PAYABLE_OPTION'
  | 'CHAIN_NOT_CONFIGURED'
  | 'RATE_LIMITED'
  | 'HEADERS_TOO_LARGE'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'STORE_BUSY'
  | 'RATE_STALE';

export interface WireWallet {
  id: string;
  active: boolean;
  amount: number;
  freezeAmount: number;
  isCrypto: boolean;
  asset: string;
  assetDetails: { symbol: string; name: string; image: string };
  chain: { name: string; symbol: string };
  assetId: string;
  chainId: string;
  networks: { id: string; name: string; chainId: string; chainSymbol: string; depositEnabled: boolean }[];
  createdAt: string;
  updatedAt: string;
}

export interface WireFeePreview {
  isPercentage: boolean;
  value: number;
  minValue: number;
  onChainFee: number;
  currency: string;
  originalCurrency: string;
  amount: number;
  convertedAmount: number;
  rate: number | null;
  serviceFee: number;
  fee: number;
  tier: { fromAmount: number; toAmount: number | null };
  scheduleSource: 'merchant' | 'default';
}

export interface WireTokenResult {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  expiresAt: string;
  scope: string[];
}

export interface WireTimeResult {
  unixTime: number;
  iso: string;
  toleranceSeconds: number;
}

/** The dashboard summary's path (protocol SUMMARY_PATHS.summary). */
export const SUMMARY_PATH = '/api/v1/cp/summary';

/** A checkout's webhook delivery attempts (protocol SUMMARY_PATHS.checkoutWebhookDeliveries); `:id` is the checkout id. */
export const CHECKOUT_WEBHOOK_DELIVERIES_PATH = '/api/v1/cp/psp/hosted-pay/:id/webhook-deliveries';

/** One delivery attempt of one of a checkout's events (protocol CheckoutWebhookAttempt). */
export interface WireCheckoutWebhookAttempt {
  id: string;
  eventId: string;
  eventType: string;
  attemptedAt: string;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string | null;
  succeeded: boolean;
  endpointId: string;
}

/** One checkout currency's settled volume in the summary. */
export interface WireSettledVolume {
  currency: string;
  amount: number;
  count: number;
}

/** GET /api/v1/cp/summary (protocol MerchantSummary). */
export interface WireSummary {
  balances: { walletId: string; asset: string; chain: string; balance: number; freezeAmount: number }[];
  settled: { todayFrom: string; monthFrom: string; today: WireSettledVolume[]; month: WireSettledVolume[] };
  attention: WireCheckout[];
}

/** The merchant API paths (protocol PATHS). */
export const PATHS = {
  wallets: '/api/v1/cp/wallets/',
  feesPreview: '/api/v1/cp/psp/hosted-pay/fees-preview',
  token: '/api/v1/auth/token',
  time: '/api/v1/time',
} as const;
