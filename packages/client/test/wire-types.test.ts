import { SETTINGS_PATH, type MerchantSettings, type SettingsLanguage } from '../src/settings.js';
import {
  type SETTINGS_LANGUAGES,
  SETTINGS_PATHS,
  type MerchantSettings as ProtocolMerchantSettings,
} from '@hostpay/protocol';
import type {
  Checkout,
  CHECKOUT_STATUS_VALUES,
  CHECKOUT_PATHS as ProtocolCheckoutPaths,
  CreateCheckoutBody,
  CreateDestinationBody,
  CreatePayoutBody,
  DESTINATION_STATUS_VALUES,
  ErrorCode,
  PAYOUT_PATHS as ProtocolPayoutPaths,
  PAYOUT_STATUS_VALUES,
  Payout,
  PayoutDestination,
  SimulatePayoutBody,
  REFUND_PATHS as ProtocolRefundPaths,
  RefundBody,
  RefundLink,
  RefundLinkBody,
  FeePreview,
  PATHS as ProtocolPaths,
  SimulatePaymentBody,
  TimeResult,
  TokenResult,
  Wallet,
  MerchantSummary,
  CheckoutWebhookAttempt,
  COLLECT_EMAIL_VALUES,
  CreateInvoiceBody,
  CreatePaymentLinkBody,
  Invoice,
  INVOICE_STATUS_VALUES,
  PaymentLink,
  PAYMENT_LINK_STATUS_VALUES,
  UpdateInvoiceBody,
  UpdatePaymentLinkBody,
} from '@hostpay/protocol';
import {
  CHECKOUT_PATHS as PROTOCOL_CHECKOUT_PATHS,
  ERROR_CODES,
  PATHS as PROTOCOL_PATHS,
  PAYOUT_PATHS as PROTOCOL_PAYOUT_PATHS,
  REFUND_PATHS as PROTOCOL_REFUND_PATHS,
  REPORT_DECIMAL_COLUMNS as PROTOCOL_REPORT_DECIMAL_COLUMNS,
  type REPORT_KINDS,
  SUMMARY_PATHS,
  INVOICE_PATHS as PROTOCOL_INVOICE_PATHS,
  PAYMENT_LINK_PATHS as PROTOCOL_PAYMENT_LINK_PATHS,
} from '@hostpay/protocol';
import type { Static } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Wire from '../src/wire.js';
import {
  CHECKOUT_PATHS,
  CHECKOUT_WEBHOOK_DELIVERIES_PATH,
  INVOICE_PATHS,
  PATHS,
  PAYMENT_LINK_PATHS,
  PAYOUT_PATHS,
  SUMMARY_PATH,
} from '../src/wire.js';
import { REPORT_DECIMAL_COLUMNS, type ReportKind } from '../src/reports.js';

// The client's published types stand alone (no import of @hostpay/protocol in its .d.ts files);
// these checks fail the type-check the moment either side changes without the other.
describe("the client's wire types equal the protocol's", () => {
  it('types', () => {
    expectTypeOf<Wire.WireWallet>().toEqualTypeOf<Wallet>();
    expectTypeOf<Wire.WireSummary>().toEqualTypeOf<MerchantSummary>();
    expectTypeOf<typeof SUMMARY_PATH>().toEqualTypeOf<(typeof SUMMARY_PATHS)['summary']>();
    expectTypeOf<Wire.WireCheckoutWebhookAttempt>().toEqualTypeOf<CheckoutWebhookAttempt>();
    expectTypeOf<typeof CHECKOUT_WEBHOOK_DELIVERIES_PATH>().toEqualTypeOf<
      (typeof SUMMARY_PATHS)['checkoutWebhookDeliveries']
    >();
    expectTypeOf<Wire.WireFeePreview>().toEqualTypeOf<FeePreview>();
    expectTypeOf<Wire.WireTokenResult>().toEqualTypeOf<TokenResult>();
    expectTypeOf<Wire.WireTimeResult>().toEqualTypeOf<TimeResult>();
    expectTypeOf<Wire.ErrorCode>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<typeof PATHS>().toEqualTypeOf<typeof ProtocolPaths>();
    expectTypeOf<Wire.WireCheckout>().toEqualTypeOf<Checkout>();
    expectTypeOf<Wire.WirePaymentOption>().toEqualTypeOf<Checkout['paymentOptions'][number]>();
    expectTypeOf<Wire.WirePayment>().toEqualTypeOf<Checkout['payments'][number]>();
    expectTypeOf<Wire.WireTimelineEntry>().toEqualTypeOf<Checkout['timeline'][number]>();
    expectTypeOf<Wire.WireCheckoutStatus>().toEqualTypeOf<(typeof CHECKOUT_STATUS_VALUES)[number]>();
    expectTypeOf<Wire.WireCreateCheckoutBody>().toEqualTypeOf<CreateCheckoutBody>();
    expectTypeOf<Wire.WireSimulatePaymentBody>().toEqualTypeOf<Static<typeof SimulatePaymentBody>>();
    expectTypeOf<typeof CHECKOUT_PATHS>().toEqualTypeOf<typeof ProtocolCheckoutPaths>();
    expectTypeOf<Wire.WirePayout>().toEqualTypeOf<Payout>();
    expectTypeOf<Wire.WirePayoutTimelineEntry>().toEqualTypeOf<Payout['timeline'][number]>();
    expectTypeOf<Wire.WirePayoutStatus>().toEqualTypeOf<(typeof PAYOUT_STATUS_VALUES)[number]>();
    expectTypeOf<Wire.WireDestination>().toEqualTypeOf<PayoutDestination>();
    expectTypeOf<Wire.WireDestinationStatus>().toEqualTypeOf<(typeof DESTINATION_STATUS_VALUES)[number]>();
    expectTypeOf<Wire.WireCreatePayoutBody>().toEqualTypeOf<CreatePayoutBody>();
    expectTypeOf<Wire.WireCreateDestinationBody>().toEqualTypeOf<CreateDestinationBody>();
    expectTypeOf<Wire.WireSimulatePayoutBody>().toEqualTypeOf<Static<typeof SimulatePayoutBody>>();
    expectTypeOf<Wire.WireRefundBody>().toEqualTypeOf<RefundBody>();
    expectTypeOf<Wire.WireRefundLinkBody>().toEqualTypeOf<RefundLinkBody>();
    expectTypeOf<Wire.WireRefundLink>().toEqualTypeOf<RefundLink>();
    expectTypeOf<ReportKind>().toEqualTypeOf<(typeof REPORT_KINDS)[number]>();
    expectTypeOf<typeof REPORT_DECIMAL_COLUMNS>().toEqualTypeOf<typeof PROTOCOL_REPORT_DECIMAL_COLUMNS>();
    expectTypeOf<Wire.WirePaymentLink>().toEqualTypeOf<PaymentLink>();
    expectTypeOf<Wire.WirePaymentLinkLineItem>().toEqualTypeOf<NonNullable<PaymentLink['lineItems']>[number]>();
    expectTypeOf<Wire.WirePaymentLinkStatus>().toEqualTypeOf<(typeof PAYMENT_LINK_STATUS_VALUES)[number]>();
    expectTypeOf<Wire.WireCollectEmail>().toEqualTypeOf<(typeof COLLECT_EMAIL_VALUES)[number]>();
    expectTypeOf<Wire.WireCreatePaymentLinkBody>().toEqualTypeOf<CreatePaymentLinkBody>();
    expectTypeOf<Wire.WireUpdatePaymentLinkBody>().toEqualTypeOf<UpdatePaymentLinkBody>();
    expectTypeOf<typeof PAYMENT_LINK_PATHS>().toEqualTypeOf<typeof PROTOCOL_PAYMENT_LINK_PATHS>();
    expectTypeOf<Wire.WireInvoice>().toEqualTypeOf<Invoice>();
    expectTypeOf<Wire.WireInvoiceLineItem>().toEqualTypeOf<Invoice['lineItems'][number]>();
    expectTypeOf<Wire.WireInvoiceStatus>().toEqualTypeOf<(typeof INVOICE_STATUS_VALUES)[number]>();
    expectTypeOf<Wire.WireCreateInvoiceBody>().toEqualTypeOf<CreateInvoiceBody>();
    expectTypeOf<Wire.WireUpdateInvoiceBody>().toEqualTypeOf<UpdateInvoiceBody>();
    expectTypeOf<typeof INVOICE_PATHS>().toEqualTypeOf<typeof PROTOCOL_INVOICE_PATHS>();
    expectTypeOf<MerchantSettings>().toEqualTypeOf<ProtocolMerchantSettings>();
    expectTypeOf<SettingsLanguage>().toEqualTypeOf<(typeof SETTINGS_LANGUAGES)[number]>();
    // The client keeps the payout and refund paths in one table; the protocol in two.
    type Both = typeof ProtocolPayoutPaths & typeof ProtocolRefundPaths;
    expectTypeOf<typeof PAYOUT_PATHS>().toEqualTypeOf<{ readonly [K in keyof Both]: Both[K] }>();
  });

  it('values', () => {
    expect(PATHS).toEqual(PROTOCOL_PATHS);
    expect(CHECKOUT_PATHS).toEqual(PROTOCOL_CHECKOUT_PATHS);
    expect(SUMMARY_PATH).toBe(SUMMARY_PATHS.summary);
    expect(CHECKOUT_WEBHOOK_DELIVERIES_PATH).toBe(SUMMARY_PATHS.checkoutWebhookDeliveries);
    expect(PAYOUT_PATHS).toEqual({ ...PROTOCOL_PAYOUT_PATHS, ...PROTOCOL_REFUND_PATHS });
    expect(PAYMENT_LINK_PATHS).toEqual(PROTOCOL_PAYMENT_LINK_PATHS);
    expect(INVOICE_PATHS).toEqual(PROTOCOL_INVOICE_PATHS);
    expect(SETTINGS_PATH).toBe(SETTINGS_PATHS.settings);
    expect(ERROR_CODES.length).toBeGreaterThan(0);
    expect(REPORT_DECIMAL_COLUMNS).toEqual(PROTOCOL_REPORT_DECIMAL_COLUMNS);
  });
});
