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
}

const REVIEW_REASONS: Record<string, string> = {
  paid_partial: 'part of the amount arrived before the time ran out, and the rest did not',
  paid_late: 'a payment arrived after this request had ended',
  wrong_asset: 'a payment arrived in an asset this request did not ask for',
};

export function stateCopy(v: PayView): StateCopy {
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
        message: 'Choose a network, then send exactly the amount shown to the address below before the time runs out.',
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
        message:
          v.reason === 'paid_over'
            ? `Payment complete. You sent more than was due: contact ${merchant} about the difference.`
            : `Payment complete. Thank you.`,
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
