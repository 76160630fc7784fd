import { Type, type Static } from '@sinclair/typebox';
import { DECIMAL_FORMAT } from './schemas.js';

/**
 * Money out on the wire (spec/payouts.md): payouts and the merchant's payout address book.
 * Amounts are exact decimals written as JSON number literals, as everywhere in hostpay.
 */
const Amount = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description} (exact decimal)` });
const Time = (description: string) => Type.String({ format: 'date-time', description });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const AmountInput = (description: string) =>
  Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Number({ format: DECIMAL_FORMAT })], {
    description: `${description}; a JSON number or a string, read exactly either way`,
  });

/** A payout's statuses, in the order of the contract's "States" table. */
export const PAYOUT_STATUS_VALUES = [
  'pending_approval',
  'approved',
  'sent',
  'completed',
  'rejected',
  'canceled',
  'failed',
] as const;
export type PayoutStatusValue = (typeof PAYOUT_STATUS_VALUES)[number];

export const DESTINATION_STATUS_VALUES = ['cooling_off', 'active', 'revoked'] as const;
export type DestinationStatusValue = (typeof DESTINATION_STATUS_VALUES)[number];

/** Who made a move on a payout's timeline. */
export const PAYOUT_ACTORS = ['merchant', 'operator', 'system'] as const;
export type PayoutActor = (typeof PAYOUT_ACTORS)[number];

export const PayoutTimelineEntry = Type.Object(
  {
    status: Type.Union(PAYOUT_STATUS_VALUES.map((s) => Type.Literal(s))),
    reason: Nullable(Type.String()),
    at: Time('when'),
    by: Type.Union(PAYOUT_ACTORS.map((s) => Type.Literal(s))),
  },
  { additionalProperties: false },
);

export const Payout = Type.Object(
  {
    id: Type.String({ description: 'po_…' }),
    status: Type.Union(PAYOUT_STATUS_VALUES.map((s) => Type.Literal(s))),
    reason: Nullable(
      Type.String({ description: 'why it was rejected, failed, canceled or is held (e.g. the sender is out of gas)' }),
    ),
    walletId: Type.String(),
    asset: Type.String(),
    chain: Type.String(),
    network: Type.String({ description: 'the network name, e.g. ERC20, TRC20, Bitcoin' }),
    amount: Amount('what the destination receives'),
    networkFee: Amount(
      "the network fee in the wallet's asset: the operator's estimate until sent, then the actual one",
    ),
    total: Amount('amount + networkFee: what leaves the wallet (frozen until completed)'),
    destination: Type.String({ description: 'the address paid' }),
    destinationId: Nullable(Type.String({ description: 'dst_… of the address book; null for a payer-given address' })),
    reference: Nullable(Type.String({ description: "the merchant's own reference" })),
    refundOf: Nullable(Type.String({ description: 'the checkout this payout refunds (chk_…), or null' })),
    txHash: Nullable(Type.String()),
    confirmations: Type.Integer({ minimum: 0 }),
    createdAt: Time('creation'),
    updatedAt: Time('last change'),
    timeline: Type.Array(PayoutTimelineEntry),
  },
  { $id: 'Payout', additionalProperties: false },
);
export type Payout = Static<typeof Payout>;

export const PayoutDestination = Type.Object(
  {
    id: Type.String({ description: 'dst_…' }),
    chain: Type.String(),
    address: Type.String({ description: 'as validated (EVM addresses in their EIP-55 spelling)' }),
    label: Nullable(Type.String()),
    status: Type.Union(DESTINATION_STATUS_VALUES.map((s) => Type.Literal(s))),
    activeFrom: Time('when the cooling-off ends (or ended)'),
    createdAt: Time('creation'),
    updatedAt: Time('last change'),
  },
  { $id: 'PayoutDestination', additionalProperties: false },
);
export type PayoutDestination = Static<typeof PayoutDestination>;

export const CreatePayoutBody = Type.Object(
  {
    walletId: Type.String({ minLength: 1, maxLength: 64 }),
    amount: AmountInput('what the destination receives, positive, in the wallet asset'),
    destinationId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'dst_… of the address book' }),
    ),
    destination: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'or the address of an active destination' }),
    ),
    reference: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type CreatePayoutBody = Static<typeof CreatePayoutBody>;

export const CreateDestinationBody = Type.Object(
  {
    chain: Type.String({ minLength: 1, maxLength: 12, description: 'chain symbol, e.g. ETH' }),
    address: Type.String({ minLength: 1, maxLength: 128 }),
    label: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type CreateDestinationBody = Static<typeof CreateDestinationBody>;

export const SimulatePayoutBody = Type.Object(
  { outcome: Type.Union([Type.Literal('completed'), Type.Literal('failed')]) },
  { additionalProperties: false },
);

export const PAYOUT_PATHS = {
  payouts: '/api/v1/cp/payouts',
  payout: '/api/v1/cp/payouts/:id',
  cancel: '/api/v1/cp/payouts/:id/cancel',
  simulate: '/api/v1/cp/payouts/:id/simulate',
  destinations: '/api/v1/cp/payout-destinations',
  destination: '/api/v1/cp/payout-destinations/:id',
} as const;
