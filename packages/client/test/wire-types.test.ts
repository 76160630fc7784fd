import type { ErrorCode, FeePreview, PATHS as ProtocolPaths, TimeResult, TokenResult, Wallet } from '@hostpay/protocol';
import { ERROR_CODES, PATHS as PROTOCOL_PATHS } from '@hostpay/protocol';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Wire from '../src/wire.js';
import { PATHS } from '../src/wire.js';

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
  });

  it('values', () => {
    expect(PATHS).toEqual(PROTOCOL_PATHS);
    expect(ERROR_CODES.length).toBeGreaterThan(0);
  });
});
