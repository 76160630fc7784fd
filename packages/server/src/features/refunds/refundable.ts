import { Decimal } from '@hostpay/protocol';
import type { LoadedCheckout } from '../checkouts/queries.js';

/**
 * Checkouts that received money (spec/payouts.md, "Refunds"): `expired` and `canceled` only
 * with payments — a payment after the end moves them to review, but a retraction may leave one
 * behind with money recorded, and the rule is about the money, not the name of the state.
 */
export const REFUNDABLE_STATUSES: ReadonlySet<string> = new Set(['settled', 'needs_review', 'expired', 'invalid']);

/** Refunding these credits the wallet first: their money was never credited (spec/payouts.md, "Refunds"). */
export const UNCREDITED_STATUSES: ReadonlySet<string> = new Set(['needs_review', 'invalid']);

/** The asset and chain a checkout's refunds are paid in, with what arrived in them. */
export interface RefundTarget {
  assetId: string;
  chainId: string;
  asset: string;
  chain: string;
  /** Everything received in that asset on that chain (payments not retracted). */
  received: Decimal;
}

/**
 * The checkout's asset and chain: the option it settled on, else the one its first payment (not
 * retracted) arrived in. Money in a second asset (a wrong asset, another option) is the
 * operators' to sort out; it is not refunded through this route. Undefined: nothing arrived.
 */
export function refundTarget(c: LoadedCheckout): RefundTarget | undefined {
  const live = c.transfers.filter((t) => t.retracted !== 1);
  const settled = c.options.find((o) => o.id === c.row.settled_option_id);
  const first = live[0];
  const pick =
    settled !== undefined
      ? {
          assetId: settled.asset_id,
          chainId: settled.chain_id,
          asset: settled.asset_symbol,
          chain: settled.chain_symbol,
        }
      : first !== undefined
        ? { assetId: first.asset_id, chainId: first.chain_id, asset: first.asset_symbol, chain: first.chain_symbol }
        : undefined;
  if (pick === undefined) return undefined;
  const received = live
    .filter((t) => t.asset_id === pick.assetId && t.chain_id === pick.chainId)
    .reduce((sum, t) => sum.plus(t.amount), new Decimal(0));
  return { ...pick, received };
}

export type Refundability = { ok: true; target: RefundTarget; refundable: Decimal } | { ok: false; why: string };

/**
 * What may still be refunded of a checkout (pure): what it received in its asset and chain minus
 * what earlier refunds of it took (those not rejected, canceled or failed).
 */
export function refundability(c: LoadedCheckout, refunded: Decimal): Refundability {
  const target = refundTarget(c);
  if (!REFUNDABLE_STATUSES.has(c.row.status) || target === undefined || target.received.lte(0))
    return {
      ok: false,
      why: `checkout ${c.row.id} is ${c.row.status} and ${target === undefined ? 'received no payment' : 'cannot be refunded in that state'}: only checkouts that received money (settled, needs_review, expired with payments, invalid) can be refunded`,
    };
  return { ok: true, target, refundable: Decimal.max(target.received.minus(refunded), 0) };
}
