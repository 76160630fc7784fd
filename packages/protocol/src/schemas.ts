import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DECIMAL_PATTERN } from './decimal.js';
import { ERROR_CODES } from './errors.js';

/**
 * Wire schemas, one source for validation, the OpenAPI document and the client's types.
 * Field names and types are fixed by spec/interface.md; additions are optional fields only.
 */

/**
 * The `format` of every JSON number that holds an exact decimal: OpenAPI has no decimal type, so
 * generators and readers can tell these from binary floats only by it (docs/api.md, "Decimals").
 * TypeBox and Ajv check no format on numbers; the document's readers are what it is for.
 */
export const DECIMAL_FORMAT = 'decimal';

/** A JSON number written from an exact decimal (up to 18 fractional digits, no exponent). */
export const ExactNumber = (description: string) =>
  Type.Number({
    format: DECIMAL_FORMAT,
    description: `${description} Exact decimal written as a JSON number literal; parse it losslessly.`,
  });

export const Envelope = <T extends TSchema>(result: T, name: string) =>
  Type.Object(
    {
      status: Type.Boolean({ description: 'true on success' }),
      message: Type.String({ description: 'human-readable text' }),
      isSuccess: Type.Boolean({ description: 'true on success' }),
      result,
    },
    { $id: name, additionalProperties: false },
  );

export const ErrorCodeSchema = Type.Union(
  ERROR_CODES.map((c) => Type.Literal(c)),
  { description: 'Stable machine code, SCREAMING_SNAKE_CASE.' },
);

export const ErrorEnvelope = Type.Object(
  {
    status: Type.Literal(false),
    message: Type.String({ description: 'What went wrong and what to do about it.' }),
    isSuccess: Type.Literal(false),
    result: Type.Null(),
    error: Type.Object(
      {
        code: ErrorCodeSchema,
        requestId: Type.String({ description: 'Also in the x-request-id header; quote it to support.' }),
        details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;

export const AssetDetails = Type.Object(
  {
    symbol: Type.String(),
    name: Type.String(),
    image: Type.String({ description: 'image file name, e.g. usdt.png' }),
  },
  { additionalProperties: false },
);

export const Chain = Type.Object({ name: Type.String(), symbol: Type.String() }, { additionalProperties: false });

export const Network = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ description: 'e.g. TRC20, ERC20' }),
    chainId: Type.String(),
    chainSymbol: Type.String(),
    depositEnabled: Type.Boolean(),
  },
  { additionalProperties: false, description: 'A network the asset can be deposited on.' },
);

export const Wallet = Type.Object(
  {
    id: Type.String({ description: 'wallet identifier, opaque string' }),
    active: Type.Boolean(),
    amount: ExactNumber('Balance.'),
    freezeAmount: ExactNumber('Frozen part of the balance.'),
    isCrypto: Type.Boolean(),
    asset: Type.String({ description: 'asset symbol' }),
    assetDetails: AssetDetails,
    chain: Chain,
    assetId: Type.String(),
    chainId: Type.String(),
    networks: Type.Array(Network),
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
    updatedAt: Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' }),
  },
  { $id: 'Wallet', additionalProperties: false },
);
export type Wallet = Static<typeof Wallet>;

export const FeeTier = Type.Object(
  {
    fromAmount: ExactNumber('Smallest amount (in originalCurrency) this tier applies to.'),
    toAmount: Type.Union([ExactNumber('First amount of the next tier (exclusive).'), Type.Null()]),
  },
  { additionalProperties: false },
);

export const FeePreview = Type.Object(
  {
    isPercentage: Type.Boolean({ description: 'true: value is a percentage of the amount (1.5 = 1.5 %)' }),
    value: ExactNumber('Percentage rate, or the fixed fee in `currency`.'),
    minValue: ExactNumber('Smallest fee, in `currency`.'),
    onChainFee: ExactNumber('Network fee added on top, in `currency`.'),
    currency: Type.String({
      description: 'currency the fees are charged in (settlement currency, else originalCurrency)',
    }),
    originalCurrency: Type.String({ description: 'currency asked for, upper case' }),
    amount: ExactNumber('The asked amount, in originalCurrency.'),
    convertedAmount: ExactNumber('The asked amount in `currency` (equal to amount when no conversion).'),
    rate: Type.Union([ExactNumber('originalCurrency -> currency rate used.'), Type.Null()]),
    serviceFee: ExactNumber('Percentage or fixed part after the minimum, in `currency`.'),
    fee: ExactNumber('Total fee for this amount: serviceFee + onChainFee, in `currency`, rounded to its precision.'),
    tier: FeeTier,
    scheduleSource: Type.Union([Type.Literal('merchant'), Type.Literal('default')]),
  },
  { $id: 'FeePreview', additionalProperties: false },
);
export type FeePreview = Static<typeof FeePreview>;

export const WalletListEnvelope = Envelope(Type.Array(Wallet), 'WalletListEnvelope');
export const FeePreviewEnvelope = Envelope(FeePreview, 'FeePreviewEnvelope');

export const TokenRequest = Type.Object(
  {
    expiresIn: Type.Optional(
      Type.Integer({
        minimum: 60,
        maximum: 86400,
        description: 'token lifetime in seconds; default 3600',
        examples: [3600],
      }),
    ),
    scope: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        maxItems: 16,
        description: 'narrow the token to these scopes of the key; default all of them',
        examples: [['wallets:read', 'fees:read']],
      }),
    ),
  },
  { additionalProperties: false },
);
export type TokenRequest = Static<typeof TokenRequest>;

export const TokenResult = Type.Object(
  {
    accessToken: Type.String(),
    tokenType: Type.Literal('Bearer'),
    expiresIn: Type.Integer({ description: 'seconds' }),
    expiresAt: Type.String({ format: 'date-time' }),
    scope: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type TokenResult = Static<typeof TokenResult>;
export const TokenEnvelope = Envelope(TokenResult, 'TokenEnvelope');

export const TimeResult = Type.Object(
  {
    unixTime: Type.Integer({ description: 'server time, whole Unix seconds; use it as the timestamp header' }),
    iso: Type.String({ format: 'date-time' }),
    toleranceSeconds: Type.Integer({ description: 'accepted difference between timestamp and server clock' }),
  },
  { additionalProperties: false },
);
export type TimeResult = Static<typeof TimeResult>;
export const TimeEnvelope = Envelope(TimeResult, 'TimeEnvelope');

const MerchantIdParam = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: "act for this sub-merchant (platform keys only); default: the API key's merchant",
});

export const WalletsQuery = Type.Object(
  { merchantId: Type.Optional(MerchantIdParam) },
  { additionalProperties: false },
);

export const CURRENCY_PATTERN = '^[A-Za-z0-9]{2,12}$';
export const FeesPreviewQuery = Type.Object(
  {
    amount: Type.String({
      pattern: DECIMAL_PATTERN,
      description: 'checkout amount, positive decimal, at most 18 fractional digits, at most 10^15',
    }),
    currency: Type.String({
      pattern: CURRENCY_PATTERN,
      description: 'currency or asset code, case-insensitive (e.g. EUR, USDT)',
    }),
    merchantId: Type.Optional(MerchantIdParam),
  },
  { additionalProperties: false },
);
export type FeesPreviewQuery = Static<typeof FeesPreviewQuery>;

/** Scopes a key or token can carry. */
export const SCOPES = [
  'wallets:read',
  'fees:read',
  'checkout:read',
  'checkout:write',
  'events:read',
  'webhooks:write',
  'payouts:read',
  'payouts:write',
  'reports:read',
  'links:read',
  'links:write',
  'invoices:read',
  'invoices:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What a key gets when created without a scope list: every scope but `payouts:write`, which moves
 * money out and must be asked for by name (spec/payouts.md, "Protection against a stolen API key").
 */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter((s) => s !== 'payouts:write');

/** The four authentication headers, interface §5 (lower case as HTTP/2 and Node see them). */
export const AUTH_HEADERS = ['api-key', 'timestamp', 'signature', 'authorization'] as const;

export const PATHS = {
  wallets: '/api/v1/cp/wallets/',
  feesPreview: '/api/v1/cp/psp/hosted-pay/fees-preview',
  token: '/api/v1/auth/token',
  time: '/api/v1/time',
} as const;
