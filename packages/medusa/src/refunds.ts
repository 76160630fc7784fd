import { refundShare, scaleOf, sumDecimals } from './amounts.js';

/** A refund the provider asked hostpay for, as kept in the session's `data.refunds`. */
export type RefundRecord =
  | { kind: 'link'; id: string; url: string; amount: string; asset: string; chain: string }
  | { kind: 'payout'; id: string; amount: string; asset: string; chain: string };

/** The parts of a checkout a refund is planned from (`Checkout` of @hostpay/client, amounts as text). */
export interface RefundableCheckout {
  id: string;
  status: string;
  amount: string;
  currency: string;
  paymentOptions: readonly { asset: string; chain: string; amountDue: string }[];
  payments: readonly { asset: string; chain: string; amount: string; retracted: boolean }[];
}

export interface RefundPlan {
  /** In the paid asset, exact. */
  amount: string;
  asset: string;
  chain: string;
}

/**
 * How much of the paid asset refunds `refund` (in the checkout's currency): hostpay refunds in the
 * asset and chain the payer paid with (the first payment not retracted, as hostpay's refund route
 * does), at most what arrived there. A refund of the checkout's whole amount gives back all that
 * arrived; a part gives back the same part of it, rounded down to the asset's precision as hostpay
 * wrote the amount due (e.g. 6 places for USDT), so the shop never refunds more than it took.
 */
export function planRefund(checkout: RefundableCheckout, refund: string): RefundPlan {
  const first = checkout.payments.find((p) => !p.retracted);
  if (!first) throw new RangeError(`hostpay checkout ${checkout.id} received nothing: there is nothing to refund`);
  const { asset, chain } = first;
  const paid = checkout.payments.filter((p) => !p.retracted && p.asset === asset && p.chain === chain);
  const received = sumDecimals(paid.map((p) => p.amount));
  const option = checkout.paymentOptions.find((o) => o.asset === asset && o.chain === chain);
  const scale = Math.max(option ? scaleOf(option.amountDue) : 0, ...paid.map((p) => scaleOf(p.amount)));
  const amount = refundShare(refund, checkout.amount, received, scale);
  if (!/[1-9]/.test(amount))
    throw new RangeError(`a refund of ${refund} ${checkout.currency} is less than the smallest unit of ${asset}`);
  return { amount, asset, chain };
}
