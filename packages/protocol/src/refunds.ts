import { Type, type Static } from '@sinclair/typebox';
import { EMAIL_FIELD_MAX } from './email.js';
import { DECIMAL_FORMAT } from './schemas.js';

/**
 * Refunds on the wire (spec/payouts.md, "Refunds"): a refund is a payout with `refundOf`; the
 * payer may give its address through a refund link on the hosted page instead of the merchant.
 */
/**
 * Mailing a refund link to the payer (spec/commerce.md, "Email": refund links, only when the call
 * says `sendEmail: true`).
 */
const MailFields = {
  sendEmail: Type.Optional(
    Type.Boolean({
      description:
        "true: the refund link is also mailed to the payer (customerEmail, else the checkout's customerEmail; 422 CUSTOMER_EMAIL_MISSING when neither is known) in the merchant's name, written in the transaction that makes the link. Only where the answer is a refund link (with a destination: 400 INVALID_BODY). Default false: the link is only in the answer",
    }),
  ),
  customerEmail: Type.Optional(
    Type.String({
      maxLength: EMAIL_FIELD_MAX,
      description:
        "with sendEmail: the payer's address to mail the link to instead of the checkout's customerEmail; one plain address (else 400 INVALID_EMAIL). Without sendEmail: 400 INVALID_BODY",
    }),
  ),
};

const AmountInput = (description: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Number({ format: DECIMAL_FORMAT })], {
    description: `${description}; a JSON number or a string, read exactly either way`,
  });

export const RefundBody = Type.Object(
  {
    amount: AmountInput(
      "what the payer gets back, positive, in the checkout's asset; at most what the checkout received minus earlier refunds",
    ),
    destination: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description:
          "the payer's address on the checkout's chain; without it the answer is a refund link the payer opens to give it",
      }),
    ),
    ...MailFields,
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

export const RefundLinkBody = Type.Object(
  {
    amount: Type.Optional(
      AmountInput('what the payer gets back; omitted: whatever is still refundable when the payer gives the address'),
    ),
    ...MailFields,
  },
  { additionalProperties: false },
);
export type RefundLinkBody = Static<typeof RefundLinkBody>;

export const RefundLink = Type.Object(
  {
    id: Type.String({ description: 'rfl_…' }),
    checkoutId: Type.String({ description: 'the checkout refunded (chk_…)' }),
    url: Type.String({
      description:
        'the page on the hosted payment site where the payer enters an address: shown once, works once, for 7 days; hand it to the payer only',
    }),
    amount: Type.Union([Type.Number({ format: DECIMAL_FORMAT, description: 'exact decimal' }), Type.Null()], {
      description: 'what the refund pays; null: whatever is still refundable when the payer gives the address',
    }),
    asset: Type.String({ description: "the checkout's asset the refund is paid in" }),
    chain: Type.String({ description: "the checkout's chain the refund is paid on" }),
    expiresAt: Type.String({ format: 'date-time', description: 'the link works until then (7 days)' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type RefundLink = Static<typeof RefundLink>;

export const REFUND_PATHS = {
  refunds: '/api/v1/cp/psp/hosted-pay/:id/refunds',
  refundLink: '/api/v1/cp/psp/hosted-pay/:id/refund-link',
} as const;

const Exact = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description} (exact decimal)` });

/** One refund of a checkout as its money summary lists it (the full payout is GET /api/v1/cp/payouts/{id}). */
export const CheckoutRefund = Type.Object(
  {
    id: Type.String({ description: 'the refund payout (po_…)' }),
    status: Type.String({ description: "the payout's status: pending_approval, approved, sent, completed, …" }),
    amount: Exact('what the payer gets back'),
    destination: Type.String(),
    txHash: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({
      format: 'date-time',
      description: 'also the `at` of its `refund_requested` timeline entry',
    }),
  },
  { additionalProperties: false },
);
export type CheckoutRefund = Static<typeof CheckoutRefund>;

/**
 * A checkout's money: what it received, the fee, what the wallet was credited, what refunds took
 * and what may still be refunded, in the checkout's asset and chain (null when nothing arrived).
 */
export const CheckoutMoney = Type.Object(
  {
    checkoutId: Type.String(),
    asset: Type.Union([Type.String(), Type.Null()]),
    chain: Type.Union([Type.String(), Type.Null()]),
    received: Exact('everything received in that asset and chain (payments not retracted)'),
    fee: Type.Union([Exact('the fee kept at settlement: received − netCredited'), Type.Null()], {
      description: 'null: not credited (yet)',
    }),
    netCredited: Exact("what settlement credited to the merchant's wallet (0 before, or for money in review)"),
    refunded: Exact('what refunds took: those not rejected, canceled or failed'),
    refundable: Exact('what may still be refunded now (0 when the checkout cannot be refunded)'),
    refundState: Type.Union([Type.Literal('partially refunded'), Type.Literal('refunded'), Type.Null()], {
      description:
        'derived, not a checkout status: `refunded` once refunds took everything received, `partially refunded` while they took part of it',
    }),
    refunds: Type.Array(CheckoutRefund, { description: 'oldest first, given-up ones included' }),
  },
  { additionalProperties: false },
);
export type CheckoutMoney = Static<typeof CheckoutMoney>;
