import type { AmountMode, DecimalInput } from './decimals.js';
import type { DecimalOf, ReadOptions, WithDecimals } from './types.js';
import type {
  WireDestination,
  WireDestinationStatus,
  WirePayout,
  WirePayoutStatus,
  WirePayoutTimelineEntry,
  WireRefundLink,
} from './wire.js';

/** The payout, address-book and refund types of the client (spec payouts.md), amounts as for Wallet. */

/** A payout's status: pending_approval, approved, rejected, canceled, sent, completed, failed. */
export type PayoutStatus = WirePayoutStatus;
/** One step of a payout's timeline: status, reason, when, and by whom (merchant, operator or system). */
export type PayoutTimelineEntry = WirePayoutTimelineEntry;
/** A payout (spec payouts.md): amount, networkFee and total as exact strings unless the client was built with amounts: 'number'. */
export type Payout<M extends AmountMode = 'string'> = WithDecimals<WirePayout, DecimalOf<M>>;
/** A destination's status: cooling_off, active, revoked. */
export type DestinationStatus = WireDestinationStatus;
/** An address of the payout address book. */
export type Destination = WireDestination;

/** One page of payouts; `nextCursor` is null on the last page. */
export interface PayoutPage<M extends AmountMode = 'string'> {
  items: Payout<M>[];
  nextCursor: string | null;
}

/** One page of payout destinations; `nextCursor` is null on the last page. */
export interface DestinationPage {
  items: Destination[];
  nextCursor: string | null;
}

export interface CreatePayoutParams {
  /** The wallet the money leaves (its asset and chain are the payout's). */
  walletId: string;
  /** What the destination receives, positive; sent as exact decimal text. The network fee comes on top. */
  amount: DecimalInput;
  /** A destination of the address book (dst_...), `active`. Give this or `destination`. */
  destinationId?: string | undefined;
  /** The address of an `active` destination of the address book. Give this or `destinationId`. */
  destination?: string | undefined;
  /** Your own reference, at most 64 characters. */
  reference?: string | undefined;
}

export interface ListPayoutsParams extends ReadOptions {
  status?: PayoutStatus | undefined;
  /** Page size 1..200 (server default 50). */
  limit?: number | undefined;
  /** `nextCursor` of the page before. */
  cursor?: string | undefined;
}

export interface CreateDestinationParams {
  /** The chain symbol, e.g. TRON, ETH, BTC. */
  chain: string;
  /** Validated for the chain: bech32/base58 (BTC), 20-byte hex with EIP-55 when mixed case (EVM), T... (TRON). */
  address: string;
  /** Your name for it. */
  label?: string | undefined;
}

export interface ListDestinationsParams extends ReadOptions {
  /** Page size 1..200 (server default 50). */
  limit?: number | undefined;
  /** `nextCursor` of the page before. */
  cursor?: string | undefined;
}

export interface RefundParams {
  /** At most what the checkout received minus earlier refunds; sent as exact decimal text. */
  amount: DecimalInput;
  /**
   * Without it (the quick path) the server answers a refund link where the payer gives their
   * address. With it: an active address of the merchant's payout address book on the checkout's
   * chain (a new entry cools off, 24 h by default: DESTINATION_NOT_ACTIVE until then).
   */
  destination?: string | undefined;
  /**
   * Without `destination`: also mail the refund link to the payer (`customerEmail`, else the
   * checkout's), in the merchant's name. No address known: CUSTOMER_EMAIL_MISSING.
   */
  sendEmail?: boolean | undefined;
  /** With `sendEmail`: the address to mail the link to instead of the checkout's. */
  customerEmail?: string | undefined;
}

/** A refund link's parameters: the amount (default: whatever is refundable then), and its mail. */
export interface RefundLinkParams {
  amount?: DecimalInput | undefined;
  sendEmail?: boolean | undefined;
  customerEmail?: string | undefined;
}

/** A link the payer opens on the hosted page to give the address a refund goes to (valid 7 days, once); amount as for Wallet. */
export type RefundLink<M extends AmountMode = 'string'> = WithDecimals<WireRefundLink, DecimalOf<M>>;
