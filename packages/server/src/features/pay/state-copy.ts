import { Decimal, decimalText } from '@hostpay/protocol';
import { safeHref } from './html.js';
import { paidOption, type PayView } from './pay-view.js';

/**
 * What the page says in each state of the contract ("States"): a title and what to do next. The
 * page renders it and the status route sends it, so the live update and a reload say the same.
 */
export interface StateCopy {
  title: string;
  message: string;
  /** Where the page's main link goes in this state, with its text; null: no link. */
  link: { href: string; text: string } | null;
  /** The footer's advice for this state (keep the page open only while something is still to come). */
  footer: string;
}

/** What each state's footer says after the request id (the page writes it; the status route sends it). */
const FOOTERS: Record<string, string> = {
  open: 'Keep this page open until it says Paid: it updates by itself.',
  underpaid: 'Keep this page open until it says Paid: it updates by itself.',
  processing: 'Nothing more to send. You may keep this page open to see the payment confirmed, or close it.',
  settled: 'This payment is complete: you can close this page.',
  expired: 'This request has ended: nothing sent to its address from now on is expected.',
  canceled: 'This request has ended: nothing sent to its address from now on is expected.',
  needs_review: 'Keep the transaction hash of what you sent: the merchant may ask for it.',
  invalid: 'Keep the transaction hash of what you sent: the merchant may ask for it.',
};

/**
 * The paid_over screen: by how much, and what happens to it. A settle credits the merchant with
 * everything received on the option that settled (minus the merchant's fee), so the excess is
 * with the merchant; money sent on another network is recorded but credited to nobody.
 */
function overpaidMessage(v: PayView): string {
  const paid = paidOption(v);
  const merchant = v.merchantName;
  const parts: string[] = [];
  if (paid !== undefined) {
    const excess = new Decimal(paid.received).minus(paid.amountDue);
    if (excess.gt(0))
      parts.push(
        `You sent ${decimalText(excess)} ${paid.asset} more than the ${paid.amountDue} ${paid.asset} due. It went to ${merchant} with the payment: ask them to refund the difference if you want it back.`,
      );
  }
  for (const o of v.options) {
    if (o === paid || !new Decimal(o.received).gt(0)) continue;
    parts.push(
      `The ${o.received} ${o.asset} also sent on ${o.network} was not needed for this payment and is held, not credited: contact ${merchant} to get it back.`,
    );
  }
  return parts.length === 0
    ? `Payment complete. You sent more than was due: contact ${merchant} about the difference.`
    : `Payment complete. ${parts.join(' ')}`;
}

const REVIEW_REASONS: Record<string, string> = {
  paid_partial: 'part of the amount arrived before the time ran out, and the rest did not',
  paid_late: 'a payment arrived after this request had ended',
  wrong_asset: 'a payment arrived in an asset this request did not ask for',
};

export function stateCopy(v: PayView): StateCopy {
  return { ...stateText(v), footer: FOOTERS[v.status] ?? 'Contact the merchant about this payment.' };
}

function stateText(v: PayView): Omit<StateCopy, 'footer'> {
  const paid = paidOption(v);
  const merchant = v.merchantName;
  // Merchant URLs were checked at creation (https, or loopback http in a sandbox); only http(s) goes out.
  const back = (url: string | null, text: string) => {
    const href = safeHref(url);
    return href === null ? null : { href, text };
  };
  switch (v.status) {
    case 'open':
      return {
        title: 'Waiting for your payment',
        message: 'Send exactly the amount below to the address below before the time runs out.',
        link: back(v.cancelUrl, `Cancel and return to ${merchant}`),
      };
    case 'underpaid':
      return {
        title: 'Partly paid',
        message:
          paid === undefined
            ? 'Part of the amount has arrived. Send the rest before the time runs out.'
            : `We received ${paid.received} ${paid.asset}. Send the remaining ${paid.remaining} ${paid.asset} on ${paid.network} to the same address before the time runs out.`,
        link: null,
      };
    case 'processing':
      return {
        title: 'Payment received, confirming',
        message:
          paid === undefined
            ? 'Your payment is being confirmed. You can close this page.'
            : `${paid.confirmations} of ${paid.confirmationsRequired} confirmations so far on ${paid.network}. Nothing more to send; this page updates by itself.`,
        link: null,
      };
    case 'settled':
      return {
        title: 'Paid',
        message: v.reason === 'paid_over' ? overpaidMessage(v) : 'Payment complete. Thank you.',
        link: back(v.successUrl, `Return to ${merchant}`),
      };
    case 'expired':
      return {
        title: 'This payment request has expired',
        message: `Do not send anything to its address. Ask ${merchant} for a new payment link.`,
        link: back(v.cancelUrl, `Return to ${merchant}`),
      };
    case 'canceled':
      return {
        title: 'Payment canceled',
        message: `${merchant} canceled this payment request. Do not send anything to its address.`,
        link: back(v.cancelUrl, `Return to ${merchant}`),
      };
    case 'needs_review':
      return {
        title: 'Payment under review',
        message: `Contact ${merchant}: ${REVIEW_REASONS[v.reason ?? ''] ?? 'this payment needs a manual check'}. Do not send anything more.`,
        link: null,
      };
    case 'invalid':
      return {
        title: 'Payment rejected',
        message: `This payment was rejected after review. Contact ${merchant}.`,
        link: null,
      };
    default:
      return { title: v.status, message: `Contact ${merchant}.`, link: null };
  }
}
