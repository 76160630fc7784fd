import type {
  Checkout,
  CHECKOUT_STATUS_VALUES,
  CHECKOUT_PATHS as ProtocolCheckoutPaths,
  CreateCheckoutBody,
  ErrorCode,
  FeePreview,
  PATHS as ProtocolPaths,
  SimulatePaymentBody,
  TimeResult,
  TokenResult,
  Wallet,
} from '@hostpay/protocol';
import { CHECKOUT_PATHS as PROTOCOL_CHECKOUT_PATHS, ERROR_CODES, PATHS as PROTOCOL_PATHS } from '@hostpay/protocol';
import type { Static } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Wire from '../src/wire.js';
import { CHECKOUT_PATHS, PATHS } from '../src/wire.js';

// The client's published types stand alone (no import of @hostpay/protocol in its .d.ts files);
// these checks fail the type-check the moment either side changes without the other.
describe("the client's wire types equal the protocol's", () => {
  it('types', () => {
    expectTypeOf<Wire.WireWallet>().toEqualTypeOf<Wallet>();
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
  });

  it('values', () => {
    expect(PATHS).toEqual(PROTOCOL_PATHS);
    expect(CHECKOUT_PATHS).toEqual(PROTOCOL_CHECKOUT_PATHS);
    expect(ERROR_CODES.length).toBeGreaterThan(0);
  });
});
