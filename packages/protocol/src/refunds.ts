import { Type, type Static } from '@sinclair/typebox';
import { DECIMAL_FORMAT } from './schemas.js';

/**
 * Refunds on the wire (spec/payouts.md, "Refunds"): a refund is a payout with `refundOf`; the
 * payer may give its address through a refund link on the hosted page instead of the merchant.
 */
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
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

export const RefundLinkBody = Type.Object(
  {
    amount: Type.Optional(
      AmountInput('what the payer gets back; omitted: whatever is still refundable when the payer gives the address'),
    ),
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
