import { Type, type Static } from '@sinclair/typebox';
import { DECIMAL_FORMAT } from './schemas.js';

/**
 * Payment links on the wire (spec/commerce.md, "Payment links"): a reusable URL that makes a fresh
 * checkout for each payer.
 */
const AmountInput = (description: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Number({ format: DECIMAL_FORMAT })], {
    description: `${description}; a JSON number or a string, read exactly either way`,
  });
const Amount = (description: string) =>
  Type.Union([Type.Number({ format: DECIMAL_FORMAT, description: 'exact decimal' }), Type.Null()], { description });

export const PAYMENT_LINK_STATUS_VALUES = ['active', 'inactive', 'expired', 'used_up'] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUS_VALUES)[number];
export const COLLECT_EMAIL_VALUES = ['none', 'optional', 'required'] as const;
export type CollectEmail = (typeof COLLECT_EMAIL_VALUES)[number];

export const PAYMENT_LINK_LIMITS = {
  lineItems: 20,
  quantityMax: 1000,
  name: 200,
  description: 500,
  lineItemName: 200,
} as const;

const LineItemInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: PAYMENT_LINK_LIMITS.lineItemName }),
    quantity: Type.Integer({ minimum: 1, maximum: PAYMENT_LINK_LIMITS.quantityMax }),
    unitAmount: AmountInput('the price of one, in the link currency'),
  },
  { additionalProperties: false },
);

const LineItem = Type.Object(
  {
    name: Type.String(),
    quantity: Type.Integer(),
    unitAmount: Type.Number({ format: DECIMAL_FORMAT, description: 'exact decimal' }),
  },
  { additionalProperties: false },
);

const PaymentOption = Type.Object(
  { asset: Type.String({ minLength: 1, maxLength: 12 }), chain: Type.String({ minLength: 1, maxLength: 12 }) },
  { additionalProperties: false },
);

const Url = (description: string) => Type.String({ maxLength: 2048, description });
const Metadata = Type.Record(Type.String(), Type.String(), {
  description: '≤ 20 string pairs, keys ≤ 40, values ≤ 500; copied to every checkout of the link',
});
const MaxUses = Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'settled checkouts at most' });

export const CreatePaymentLinkBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: PAYMENT_LINK_LIMITS.name, description: 'shown as the page title' }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: PAYMENT_LINK_LIMITS.description }), Type.Null()])),
    currency: Type.String({ minLength: 1, maxLength: 12, description: 'any currency checkouts accept, e.g. EUR' }),
    amount: Type.Optional(
      Type.Union([
        AmountInput('fixed price; omitted or null (and no lineItems): the payer types it within minAmount/maxAmount'),
        Type.Null(),
      ]),
    ),
    minAmount: Type.Optional(
      Type.Union([AmountInput('lowest amount the payer may type (default: none)'), Type.Null()]),
    ),
    maxAmount: Type.Optional(
      Type.Union([AmountInput('highest amount the payer may type (default: none)'), Type.Null()]),
    ),
    lineItems: Type.Optional(
      Type.Union([
        Type.Array(LineItemInput, {
          minItems: 1,
          maxItems: PAYMENT_LINK_LIMITS.lineItems,
          description: 'the price is their sum; an amount that differs is 400',
        }),
        Type.Null(),
      ]),
    ),
    paymentOptions: Type.Optional(
      Type.Union([
        Type.Array(PaymentOption, { maxItems: 20, description: 'as checkout create; default every payable wallet' }),
        Type.Null(),
      ]),
    ),
    collectEmail: Type.Optional(
      Type.Union(
        COLLECT_EMAIL_VALUES.map((v) => Type.Literal(v)),
        { default: 'none' },
      ),
    ),
    successUrl: Type.Optional(Type.Union([Url('https; may hold {CHECKOUT_ID}'), Type.Null()])),
    cancelUrl: Type.Optional(Type.Union([Url("https; default: the link's page"), Type.Null()])),
    maxUses: Type.Optional(Type.Union([MaxUses, Type.Null()])),
    expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    active: Type.Optional(Type.Boolean({ default: true })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreatePaymentLinkBody = Static<typeof CreatePaymentLinkBody>;

export const UpdatePaymentLinkBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: PAYMENT_LINK_LIMITS.name })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: PAYMENT_LINK_LIMITS.description }), Type.Null()])),
    active: Type.Optional(Type.Boolean()),
    maxUses: Type.Optional(Type.Union([MaxUses, Type.Null()])),
    expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    successUrl: Type.Optional(Type.Union([Url('https; may hold {CHECKOUT_ID}'), Type.Null()])),
    cancelUrl: Type.Optional(Type.Union([Url("https; null: the link's page"), Type.Null()])),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, description: 'only these fields; the price is fixed once created' },
);
export type UpdatePaymentLinkBody = Static<typeof UpdatePaymentLinkBody>;

export const PaymentLink = Type.Object(
  {
    id: Type.String({ description: 'plink_…' }),
    slug: Type.String({ description: 'server-made, ~128 random bits, never changes' }),
    url: Type.String({ description: '<public base>/l/{slug}' }),
    name: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    currency: Type.String(),
    amount: Amount('the price; null: the payer types it'),
    minAmount: Amount('lowest typed amount; null: none'),
    maxAmount: Amount('highest typed amount; null: none'),
    lineItems: Type.Union([Type.Array(LineItem), Type.Null()]),
    paymentOptions: Type.Union([Type.Array(PaymentOption), Type.Null()], { description: 'null: every payable wallet' }),
    collectEmail: Type.Union(COLLECT_EMAIL_VALUES.map((v) => Type.Literal(v))),
    successUrl: Type.Union([Type.String(), Type.Null()]),
    cancelUrl: Type.String({ description: "where a payer who cancels returns; the link's own page unless set" }),
    maxUses: Type.Union([Type.Integer(), Type.Null()], { description: 'null: unlimited' }),
    uses: Type.Integer({ description: 'settled checkouts' }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    active: Type.Boolean(),
    status: Type.Union(
      PAYMENT_LINK_STATUS_VALUES.map((v) => Type.Literal(v)),
      { description: 'read only' },
    ),
    metadata: Type.Record(Type.String(), Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false, $id: 'PaymentLink' },
);
export type PaymentLink = Static<typeof PaymentLink>;

export const PAYMENT_LINK_PATHS = {
  links: '/api/v1/cp/payment-links',
  link: '/api/v1/cp/payment-links/:id',
  checkouts: '/api/v1/cp/payment-links/:id/checkouts',
} as const;
