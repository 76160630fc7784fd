import { Decimal, decimalText } from '@hostpay/protocol';
import type { MessageKey, Speech } from '../../i18n/messages.js';
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
const FOOTERS: Record<string, MessageKey> = {
  open: 'pay.footerWaiting',
  underpaid: 'pay.footerWaiting',
  processing: 'pay.footerProcessing',
  settled: 'pay.footerSettled',
  expired: 'pay.footerEnded',
  canceled: 'pay.footerEnded',
  needs_review: 'pay.footerReview',
  invalid: 'pay.footerReview',
};

const REVIEW_REASONS: Record<string, MessageKey> = {
  paid_partial: 'pay.reviewPartial',
  paid_late: 'pay.reviewLate',
  wrong_asset: 'pay.reviewWrongAsset',
};

/**
 * Exact values (amounts, addresses, networks) read left to right inside a right-to-left sentence:
 * isolated (LRI … PDI) so the bidi algorithm does not reorder "0.5 USDT" around Arabic words.
 * Only for right-to-left languages: a left-to-right text keeps its values byte for byte.
 */
export function exact(s: Speech, value: string): string {
  return s.dir === 'rtl' ? `\u2066${value}\u2069` : value;
}

/** What separates two sentences: Chinese and Japanese end a sentence with 。 and need no space after it. */
export const sentenceGap = (s: Speech): string => (s.lang === 'ja' || s.lang === 'zh-CN' ? '' : ' ');

/**
 * The paid_over screen: by how much, and what happens to it. A settle credits the merchant with
 * everything received on the option that settled (minus the merchant's fee), so the excess is
 * with the merchant; money sent on another network is recorded but credited to nobody.
 */
function overpaidMessage(s: Speech, v: PayView): string {
  const paid = paidOption(v);
  const merchant = v.merchantName;
  const parts: string[] = [];
  if (paid !== undefined) {
    const excess = new Decimal(paid.received).minus(paid.amountDue);
    if (excess.gt(0))
      parts.push(
        s.t('pay.overpaidExcess', {
          excess: exact(s, decimalText(excess)),
          due: exact(s, paid.amountDue),
          asset: exact(s, paid.asset),
          merchant,
        }),
      );
  }
  for (const o of v.options) {
    if (o === paid || !new Decimal(o.received).gt(0)) continue;
    parts.push(
      s.t('pay.overpaidOther', {
        amount: exact(s, o.received),
        asset: exact(s, o.asset),
        network: exact(s, o.network),
        merchant,
      }),
    );
  }
  if (parts.length === 0) parts.push(s.t('pay.overpaidUnknown', { merchant }));
  return [s.t('pay.overpaidComplete'), ...parts].join(sentenceGap(s));
}

export function stateCopy(s: Speech, v: PayView): StateCopy {
  return { ...stateText(s, v), footer: s.t(FOOTERS[v.status] ?? 'pay.footerOther') };
}

function stateText(s: Speech, v: PayView): Omit<StateCopy, 'footer'> {
  const paid = paidOption(v);
  const merchant = v.merchantName;
  // Merchant URLs were checked at creation (https, or loopback http in a sandbox); only http(s) goes out.
  const back = (url: string | null, key: 'pay.cancelLink' | 'pay.returnLink') => {
    const href = safeHref(url);
    return href === null ? null : { href, text: s.t(key, { merchant }) };
  };
  switch (v.status) {
    case 'open':
      return {
        title: s.t('pay.openTitle'),
        message: s.t('pay.openMessage'),
        link: back(v.cancelUrl, 'pay.cancelLink'),
      };
    case 'underpaid':
      return {
        title: s.t('pay.underpaidTitle'),
        message:
          paid === undefined
            ? s.t('pay.underpaidMessage')
            : s.t('pay.underpaidRemaining', {
                received: exact(s, paid.received),
                remaining: exact(s, paid.remaining),
                asset: exact(s, paid.asset),
                network: exact(s, paid.network),
              }),
        link: null,
      };
    case 'processing':
      return {
        title: s.t('pay.processingTitle'),
        message:
          paid === undefined
            ? s.t('pay.processingMessage')
            : s.t('pay.processingConfirmations', {
                confirmedCount: paid.confirmations,
                requiredCount: paid.confirmationsRequired,
                network: exact(s, paid.network),
              }),
        link: null,
      };
    case 'settled':
      return {
        title: s.t('pay.settledTitle'),
        message: v.reason === 'paid_over' ? overpaidMessage(s, v) : s.t('pay.settledMessage'),
        link: back(v.successUrl, 'pay.returnLink'),
      };
    case 'expired':
      return {
        title: s.t('pay.expiredTitle'),
        message: s.t('pay.expiredMessage', { merchant }),
        link: back(v.cancelUrl, 'pay.returnLink'),
      };
    case 'canceled':
      return {
        title: s.t('pay.canceledTitle'),
        message: s.t('pay.canceledMessage', { merchant }),
        link: back(v.cancelUrl, 'pay.returnLink'),
      };
    case 'needs_review':
      return {
        title: s.t('pay.reviewTitle'),
        message: s.t(REVIEW_REASONS[v.reason ?? ''] ?? 'pay.reviewOther', { merchant }),
        link: null,
      };
    case 'invalid':
      return {
        title: s.t('pay.invalidTitle'),
        message: s.t('pay.invalidMessage', { merchant }),
        link: null,
      };
    default:
      return { title: v.status, message: s.t('pay.otherMessage', { merchant }), link: null };
  }
}
