import { Decimal } from '@hostpay/protocol';
import type { CheckoutFacts, PaymentFacts } from './decide.js';
import type { CheckoutStatus } from './states.js';
import type { LoadedCheckout } from './queries.js';

/** The recorded transfers of a checkout as decision facts. */
export function paymentFacts(c: LoadedCheckout): PaymentFacts[] {
  return c.transfers.map((t) => {
    const option = c.options.find((o) => o.id === t.option_id);
    return {
      optionId: t.option_id,
      rightAsset: option !== undefined && option.asset_id === t.asset_id,
      amount: new Decimal(t.amount),
      confirmations: t.confirmations,
      onTime: (t.block_time ?? t.detected_at) <= c.row.expires_at,
      retracted: t.retracted === 1,
    };
  });
}

export function checkoutFacts(c: LoadedCheckout, nowIso: string): CheckoutFacts {
  return {
    status: c.row.status as CheckoutStatus,
    options: c.options.map((o) => ({
      id: o.id,
      amountDue: new Decimal(o.amount_due),
      confirmationsRequired: o.confirmations_required,
    })),
    payments: paymentFacts(c),
    tolerancePercent: new Decimal(c.row.tolerance_percent),
    expired: nowIso >= c.row.expires_at,
  };
}
