/**
 * The payout wire types (spec payouts.md, "Objects"), written out as wire.ts explains: the
 * client's declarations stand alone.
 */

/** A payout's status: requested, then approved (or rejected), sent, completed or failed; canceled before sending. */
export type WirePayoutStatus =
  | 'pending_approval'
  | 'approved'
  | 'rejected'
  | 'canceled'
  | 'sent'
  | 'completed'
  | 'failed';

/** One step of a payout: its status, why, when, and who moved it. */
export interface WirePayoutTimelineEntry {
  status: WirePayoutStatus;
  reason: string | null;
  at: string;
  by: 'merchant' | 'operator' | 'system';
}

/** Money leaving a merchant's wallet for an address of its address book (or a payer's, for a refund). */
export interface WirePayout {
  id: string;
  status: WirePayoutStatus;
  reason: string | null;
  walletId: string;
  asset: string;
  chain: string;
  network: string;
  /** What the destination receives. */
  amount: number;
  /** Estimated at request, actual once sent, in the wallet's asset. */
  networkFee: number;
  /** amount + networkFee: what leaves the wallet. */
  total: number;
  destination: string;
  /** The destination of the address book (dst_...); null for an address a payer gave (refund link). */
  destinationId: string | null;
  reference: string | null;
  /** The checkout this payout refunds, or null. */
  refundOf: string | null;
  txHash: string | null;
  confirmations: number;
  createdAt: string;
  updatedAt: string;
  timeline: WirePayoutTimelineEntry[];
}

/** A destination of the address book: cooling off after it is added, then active, until revoked. */
export type WireDestinationStatus = 'cooling_off' | 'active' | 'revoked';

/** An address of the merchant's payout address book. */
export interface WireDestination {
  id: string;
  chain: string;
  address: string;
  label: string | null;
  status: WireDestinationStatus;
  /** When the cooling-off period ends (or ended). */
  activeFrom: string;
  createdAt: string;
  updatedAt: string;
}

/** The create-payout body: a destination by id, or the address of an active destination. */
export interface WireCreatePayoutBody {
  walletId: string;
  amount: string | number;
  destinationId?: string;
  destination?: string;
  reference?: string;
}

/** The create-destination body. */
export interface WireCreateDestinationBody {
  chain: string;
  address: string;
  label?: string;
}

/** The sandbox body that moves an approved payout through sent to its outcome. */
export interface WireSimulatePayoutBody {
  outcome: 'completed' | 'failed';
}

/** A refund of a checkout: to this address, or (no destination) a link the payer opens to give one. */
export interface WireRefundBody {
  amount: string | number;
  destination?: string;
  sendEmail?: boolean;
  customerEmail?: string;
}

/** The refund-link body: the amount, or none for whatever is still refundable when the payer gives the address. */
export interface WireRefundLinkBody {
  amount?: string | number;
  sendEmail?: boolean;
  customerEmail?: string;
}

/** A link the payer opens on the hosted page to give the address a refund goes to (works once, 7 days). */
export interface WireRefundLink {
  id: string;
  checkoutId: string;
  url: string;
  /** What the refund pays; null: whatever is still refundable when the payer gives the address. */
  amount: number | null;
  asset: string;
  chain: string;
  expiresAt: string;
  createdAt: string;
}

/** The payout and refund paths (spec payouts.md, "Routes"); `:id` is the payout, destination or checkout id. */
export const PAYOUT_PATHS = {
  payouts: '/api/v1/cp/payouts',
  payout: '/api/v1/cp/payouts/:id',
  cancel: '/api/v1/cp/payouts/:id/cancel',
  simulate: '/api/v1/cp/payouts/:id/simulate',
  destinations: '/api/v1/cp/payout-destinations',
  destination: '/api/v1/cp/payout-destinations/:id',
  refunds: '/api/v1/cp/psp/hosted-pay/:id/refunds',
  refundLink: '/api/v1/cp/psp/hosted-pay/:id/refund-link',
} as const;
