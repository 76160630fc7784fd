export { HostpayClient, type HostpayClientOptions } from './client.js';
export type { Checkouts } from './checkouts.js';
export type { PayoutDestinations, Payouts } from './payouts.js';
export type { PaymentLinks } from './payment-links.js';
export type { Invoices } from './invoices.js';
export type {
  MerchantSettings,
  Settings,
  SettingsLanguage,
  UpdateSettingsParams,
} from './settings.js';
export type {
  CollectEmail,
  CreateInvoiceParams,
  CreatePaymentLinkParams,
  Invoice,
  InvoiceDraftParams,
  InvoiceLineInput,
  InvoiceLineItem,
  InvoicePage,
  InvoiceStatus,
  ListInvoicesParams,
  ListPaymentLinkCheckoutsParams,
  ListPaymentLinksParams,
  PaymentLink,
  PaymentLinkPage,
  PaymentLinkStatus,
  UpdateInvoiceParams,
  UpdatePaymentLinkParams,
} from './commerce-types.js';
export type {
  CreateDestinationParams,
  CreatePayoutParams,
  Destination,
  DestinationPage,
  DestinationStatus,
  ListDestinationsParams,
  ListPayoutsParams,
  Payout,
  PayoutPage,
  PayoutStatus,
  PayoutTimelineEntry,
  RefundLink,
  RefundLinkParams,
  RefundParams,
} from './payout-types.js';
export {
  HostpayError,
  isHostpayError,
  type ClientErrorCode,
  type HostpayErrorCode,
  type HostpayErrorInit,
} from './errors.js';
export { DECIMAL_FIELDS, decimalText, type AmountMode, type DecimalField, type DecimalInput } from './decimals.js';
export { resignOnReuse, type ResignOptions } from './resign.js';
export { defaultRetryDelay, isRetryable, type RetryDelay, type RetryInfo } from './retry.js';
export { canonicalTarget, compactJson, sign, signV2 } from './signing.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookVerificationReason,
} from './webhooks.js';
export { verifyWebhookEvent, type WebhookEventJson } from './webhook-event.js';
export type {
  CallOptions,
  Checkout,
  CheckoutPage,
  CheckoutStatus,
  CreateCheckoutParams,
  ListCheckoutsParams,
  Payment,
  PaymentOption,
  ReadOptions,
  SimulatePaymentParams,
  TimelineEntry,
  WriteOptions,
  DecimalOf,
  FeePreview,
  IssueTokenParams,
  ListWalletsParams,
  PreviewFeesParams,
  CheckoutWebhookAttempt,
  CheckoutWebhookAttemptPage,
  ListCheckoutWebhookDeliveriesParams,
  Summary,
  TimeResult,
  TokenResult,
  Wallet,
  WithDecimals,
} from './types.js';
export type { ReportKind, ReportParams, ReportRow } from './reports.js';
