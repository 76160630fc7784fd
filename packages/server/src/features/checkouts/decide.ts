import { Decimal } from '@hostpay/protocol';
import type { CheckoutEvent, CheckoutStatus } from './states.js';

/**
 * What the recorded payments of a checkout mean, as the next event for the transition table
 * (states.ts). Pure: the service loads the facts, asks `nextEvent`, applies the transition, and
 * asks again until nothing more happens (an already-confirmed payment goes open → processing →
 * settled in one go).
 */
export interface OptionFacts {
  id: string;
  amountDue: Decimal;
  confirmationsRequired: number;
}

export interface PaymentFacts {
  /** The option whose address received it (null: not matched to an option). */
  optionId: string | null;
  /** The asset is the one that option offers on that address. */
  rightAsset: boolean;
  amount: Decimal;
  confirmations: number;
  /** blockTime, or else its first report, at or before expiresAt. */
  onTime: boolean;
  retracted: boolean;
}

export interface CheckoutFacts {
  status: CheckoutStatus;
  options: OptionFacts[];
  payments: PaymentFacts[];
  /** 0..5 (percent). */
  tolerancePercent: Decimal;
  expired: boolean;
}

export interface OptionTotals {
  /** Every live payment in the option's asset to its address. */
  received: Decimal;
  /** The same, counting only payments on time. */
  receivedOnTime: Decimal;
  /** Every live on-time payment has its confirmations. */
  confirmed: boolean;
}

const live = (p: PaymentFacts) => !p.retracted;

export function optionTotals(option: OptionFacts, payments: PaymentFacts[]): OptionTotals {
  let received = new Decimal(0);
  let receivedOnTime = new Decimal(0);
  let confirmed = true;
  for (const p of payments) {
    if (!live(p) || !p.rightAsset || p.optionId !== option.id) continue;
    received = received.plus(p.amount);
    if (p.onTime) {
      receivedOnTime = receivedOnTime.plus(p.amount);
      if (p.confirmations < option.confirmationsRequired) confirmed = false;
    }
  }
  return { received, receivedOnTime, confirmed };
}

/** The option whose on-time payments reach amountDue × (1 − tolerance), first in offer order. */
export function optionAtThreshold(facts: CheckoutFacts): OptionFacts | undefined {
  const keep = new Decimal(1).minus(facts.tolerancePercent.dividedBy(100));
  return facts.options.find((o) => optionTotals(o, facts.payments).receivedOnTime.gte(o.amountDue.times(keep)));
}

export function nextEvent(facts: CheckoutFacts): CheckoutEvent | undefined {
  const { status, payments } = facts;
  const wrongAsset = payments.some((p) => live(p) && p.optionId !== null && !p.rightAsset);
  const anyOnTime = facts.options.some((o) => optionTotals(o, payments).receivedOnTime.gt(0));
  switch (status) {
    case 'open':
    case 'underpaid': {
      if (wrongAsset) return { kind: 'wrong_asset' };
      if (optionAtThreshold(facts)) return { kind: 'threshold_reached' };
      if (status === 'open' && anyOnTime) return { kind: 'partial_payment' };
      if (facts.expired) return { kind: 'expire' };
      return undefined;
    }
    case 'processing': {
      if (wrongAsset) return { kind: 'wrong_asset' };
      const met = optionAtThreshold(facts);
      if (met === undefined) return { kind: 'payment_retracted', anyLeft: anyOnTime };
      const totals = optionTotals(met, payments);
      if (!totals.confirmed) return undefined;
      // Money above amountDue on the settling option, or any money on another option, is "paid over".
      const elsewhere = facts.options.some((o) => o.id !== met.id && optionTotals(o, payments).received.gt(0));
      return { kind: 'confirmed', overpaid: totals.received.gt(met.amountDue) || elsewhere };
    }
    case 'expired':
    case 'canceled':
      return payments.some(live) ? { kind: 'late_payment' } : undefined;
    default:
      return undefined;
  }
}
