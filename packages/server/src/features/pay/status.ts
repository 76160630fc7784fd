import { jsonDecimal } from '@hostpay/protocol';
import { formatCheckoutAmount } from './format.js';
import { PAYABLE, type PayView } from './pay-view.js';
import { stateCopy } from './state-copy.js';

/**
 * The status route's `result`: the page's content, amounts as exact number literals. Payment
 * options (addresses, payment URIs) only while the checkout takes payments, as the page shows
 * them: once it has ended, nobody should be told where to send money.
 */
export function statusResult(v: PayView, now: string, locale: string) {
  const copy = stateCopy(v);
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
    amountText: formatCheckoutAmount(v.amount, v.currency, v.fiatCurrency, locale),
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
  };
}
