import { jsonDecimal } from '@hostpay/protocol';
import { formatAmount } from '../../i18n/format.js';
import type { Lang } from '../../i18n/languages.js';
import { speechOf } from '../../i18n/messages.js';
import { PAYABLE, type PayView } from './pay-view.js';
import { stateCopy } from './state-copy.js';

/**
 * The status route's `result`: the page's content, amounts as exact number literals. Payment
 * options (addresses, payment URIs) only while the checkout takes payments, as the page shows
 * them: once it has ended, nobody should be told where to send money. Its words (title, message,
 * link text, footer, amountText) are in `lang`, the page's language, so a live update reads as
 * the page it updates.
 */
export function statusResult(v: PayView, now: string, lang: Lang) {
  const copy = stateCopy(speechOf(lang), v);
  const shown = PAYABLE.has(v.status) ? v.options : [];
  return {
    id: v.id,
    status: v.status,
    reason: v.reason,
    title: copy.title,
    message: copy.message,
    link: copy.link,
    footer: copy.footer,
    merchantName: v.merchantName,
    description: v.description,
    amount: jsonDecimal(v.amount),
    currency: v.currency,
    amountText: formatAmount(lang, v.amount, v.currency, v.fiatCurrency),
    expiresAt: v.expiresAt,
    now,
    options: shown.map((o) => ({
      key: o.key,
      asset: o.asset,
      chain: o.chain,
      network: o.network,
      address: o.address,
      amountDue: jsonDecimal(o.amountDue),
      received: jsonDecimal(o.received),
      remaining: jsonDecimal(o.remaining),
      confirmations: o.confirmations,
      confirmationsRequired: o.confirmationsRequired,
      paymentUri: o.paymentUri,
      walletUri: o.walletUri,
    })),
    payments: v.payments.map((p) => ({
      asset: p.asset,
      chain: p.chain,
      amount: jsonDecimal(p.amount),
      txHash: p.txHash,
      explorerUrl: p.explorerUrl,
    })),
    receiptNumber: v.receiptNumber,
    receiptUrl: v.receiptUrl,
  };
}
