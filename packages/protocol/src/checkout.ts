import { Type, type Static } from '@sinclair/typebox';
import { CHECKOUT_STATUS_VALUES } from './checkout-status.js';
import { DECIMAL_FORMAT } from './schemas.js';
import { EMAIL_FIELD_MAX } from './email.js';

/**
 * The hosted checkout on the wire (spec/checkout.md, "Checkout object"). Amounts are exact
 * decimals written as JSON number literals, as everywhere in hostpay.
 */
const Amount = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description} (exact decimal)` });
const Time = (description: string) => Type.String({ format: 'date-time', description });

export const PaymentOption = Type.Object(
  {
    asset: Type.String(),
    chain: Type.String(),
    network: Type.String({ description: 'the network name, e.g. ERC20, TRC20, Bitcoin' }),
    tokenContract: Type.Union([Type.String(), Type.Null()], {
      description: 'token contract on that chain; null for the native coin',
    }),
    address: Type.String({ description: 'fresh deposit address of this option, used for nothing else' }),
    amountDue: Amount(
      "what the payer sends in the asset: amount × rate, rounded up once to the asset's display precision (its precision, at most 8 places)",
    ),
    rate: Amount(
      '1 unit of the checkout currency in the asset, locked until expiresAt: the source rate × (1 + rateSpreadPercent / 100), rounded up at 18 fractional digits',
    ),
    rateSource: Type.Union([Type.String(), Type.Null()], {
      description:
        'where the source rate came from (`manual` for an operator rate, a feed id, `identity` when the asset is the currency); null for checkouts created before it was recorded',
    }),
    rateAt: Type.Union([
      Time('when the source rate was quoted (its source answered, or the operator set it)'),
      Type.Null(),
    ]),
    rateSpreadPercent: Type.Union([Amount('the operator spread applied to the source rate, in percent'), Type.Null()]),
    received: Amount('everything received on this option so far'),
    remaining: Amount('amountDue − received, at least 0'),
    fee: Amount('the fee in the asset'),
    netAmount: Amount('amountDue − fee: what the wallet is credited when exactly amountDue arrives'),
    confirmationsRequired: Type.Integer(),
  },
  { additionalProperties: false },
);

export const Payment = Type.Object(
  {
    id: Type.String(),
    chain: Type.String(),
    asset: Type.String(),
    txHash: Type.String(),
    index: Type.Integer(),
    address: Type.String(),
    amount: Amount('amount moved'),
    confirmations: Type.Integer(),
    confirmed: Type.Boolean({ description: 'has the confirmations its option requires' }),
    retracted: Type.Boolean({ description: 'orphaned by a chain reorganisation; no longer counted' }),
    blockTime: Type.Union([Time('block time reported by the indexer'), Type.Null()]),
    detectedAt: Time('first report'),
  },
  { additionalProperties: false },
);

export const TimelineEntry = Type.Object(
  { status: Type.String(), reason: Type.Union([Type.String(), Type.Null()]), at: Time('when') },
  { additionalProperties: false },
);

export const Checkout = Type.Object(
  {
    id: Type.String({
      description:
        'chk_ + the creation time (9 base-36 digits) + 160 random bits (31 base-36 digits): the random part (≥ 128 bits) is the capability to the payment page',
    }),
    status: Type.Union(CHECKOUT_STATUS_VALUES.map((s) => Type.Literal(s))),
    reason: Type.Union([Type.String(), Type.Null()]),
    amount: Amount('checkout amount in currency'),
    currency: Type.String(),
    fee: Type.Record(Type.String(), Type.Unknown(), {
      description: 'the fee preview for this amount and currency, field for field',
    }),
    orderId: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    metadata: Type.Record(Type.String(), Type.String()),
    url: Type.String({ description: 'the hosted payment page' }),
    successUrl: Type.Union([Type.String(), Type.Null()]),
    cancelUrl: Type.Union([Type.String(), Type.Null()]),
    expiresAt: Time('end of the rate lock; open checkouts expire then'),
    createdAt: Time('creation'),
    updatedAt: Time('last change'),
    paymentOptions: Type.Array(PaymentOption),
    payments: Type.Array(Payment),
    timeline: Type.Array(TimelineEntry),
    paymentLinkId: Type.Union([Type.String(), Type.Null()], { description: 'the payment link that made it' }),
    invoiceId: Type.Union([Type.String(), Type.Null()], { description: 'the invoice it pays' }),
    customerEmail: Type.Union([Type.String(), Type.Null()], { description: "the payer's email, when given" }),
    receiptNumber: Type.Union([Type.String(), Type.Null()], {
      description: 'RCPT-000001…, per merchant, assigned when it settles',
    }),
    receiptUrl: Type.Union([Type.String(), Type.Null()], { description: '/pay/{id}/receipt once settled' }),
  },
  { $id: 'Checkout', additionalProperties: false },
);
export type Checkout = Static<typeof Checkout>;

/** The create body. Amounts may be JSON numbers or strings: both are read exactly. */
export const CreateCheckoutBody = Type.Object(
  {
    amount: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Number({ format: DECIMAL_FORMAT })], {
      description:
        'positive decimal, at most 18 fractional digits, at most 10^15; a JSON number or a string, read exactly either way',
    }),
    currency: Type.String({
      minLength: 1,
      maxLength: 12,
      description: 'any currency the fee preview accepts, e.g. EUR',
    }),
    orderId: Type.Optional(Type.String({ maxLength: 64, description: 'your order reference (not unique)' })),
    description: Type.Optional(Type.String({ maxLength: 500, description: 'shown to the payer on the page' })),
    paymentOptions: Type.Optional(
      Type.Array(
        Type.Object(
          { asset: Type.String({ minLength: 1, maxLength: 12 }), chain: Type.String({ minLength: 1, maxLength: 12 }) },
          { additionalProperties: false },
        ),
        { maxItems: 20, description: 'default: every active wallet that can be priced' },
      ),
    ),
    expiresIn: Type.Optional(Type.Integer({ description: 'seconds, 300–86400 (default 900)' })),
    successUrl: Type.Optional(
      Type.String({ maxLength: 2048, description: 'https (http to loopback only in a sandbox)' }),
    ),
    cancelUrl: Type.Optional(
      Type.String({ maxLength: 2048, description: 'https (http to loopback only in a sandbox)' }),
    ),
    metadata: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: '≤ 20 string pairs, keys ≤ 40, values ≤ 500' }),
    ),
    customerEmail: Type.Optional(
      Type.String({
        maxLength: EMAIL_FIELD_MAX,
        description:
          "the payer's email: one address of at most 254 characters, no display name (else INVALID_EMAIL); the receipt is mailed to it",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateCheckoutBody = Static<typeof CreateCheckoutBody>;

export const SimulatePaymentBody = Type.Object(
  {
    asset: Type.String({ minLength: 1, maxLength: 12 }),
    chain: Type.String({ minLength: 1, maxLength: 12 }),
    amount: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Number({ format: DECIMAL_FORMAT })], {
        description: 'default: what is still due on that option',
      }),
    ),
    confirmations: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000000,
        description: "default: the chain's requirement (so the payment confirms at once)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const CHECKOUT_PATHS = {
  checkouts: '/api/v1/cp/psp/hosted-pay',
  checkout: '/api/v1/cp/psp/hosted-pay/:id',
  cancel: '/api/v1/cp/psp/hosted-pay/:id/cancel',
  simulatePayment: '/api/v1/cp/psp/hosted-pay/:id/simulate-payment',
} as const;
