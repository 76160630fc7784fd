import { Decimal, decimalText, jsonDecimal, type FeePreview, type WithExactNumbers } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';

/** One tier of a fee schedule, as the engine sees it (values in the fee currency). */
export interface FeeTierInput {
  fromAmount: string;
  isPercentage: boolean;
  value: string;
  minValue: string;
  onChainFee: string;
}

export interface FeeQuoteInput {
  /** Asked amount, in `originalCurrency`. */
  amount: Decimal;
  originalCurrency: string;
  /** Currency the fees are charged in. */
  currency: string;
  /** Fractional digits of `currency`: every computed figure is rounded to them, half up. */
  currencyDecimals: number;
  /** originalCurrency -> currency; null when they are the same. */
  rate: Decimal | null;
  tiers: FeeTierInput[];
  scheduleSource: 'merchant' | 'default';
}

/**
 * The fee rule, pure: pick the tier with the largest lower bound not above the amount; the
 * service fee is `value` % of the amount converted into the fee currency (or `value` itself when
 * fixed), raised to `minValue`; the network fee `onChainFee` is added on top. Computed exactly,
 * then rounded once per figure to the fee currency's precision, half up.
 */
export function quoteFee(input: FeeQuoteInput): WithExactNumbers<FeePreview> {
  const tiers = [...input.tiers].sort((a, b) => new Decimal(a.fromAmount).comparedTo(new Decimal(b.fromAmount)));
  let index = -1;
  for (let i = 0; i < tiers.length; i++) if (new Decimal(tiers[i]!.fromAmount).lte(input.amount)) index = i;
  const tier = tiers[index];
  if (!tier) {
    const lowest = tiers[0]?.fromAmount;
    throw new HostpayError(
      'NO_FEE_SCHEDULE',
      lowest === undefined
        ? `no fee schedule is configured for ${input.originalCurrency}`
        : `no fee tier for ${input.originalCurrency} covers amount ${decimalText(input.amount)}: the lowest tier starts at ${lowest}`,
      { currency: input.originalCurrency },
    );
  }
  const next = tiers[index + 1];
  const dp = input.currencyDecimals;
  // Converted amounts are rounded to the fee currency; an unconverted amount stays as asked.
  const converted = input.rate
    ? input.amount.times(input.rate).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP)
    : input.amount;
  const raw = tier.isPercentage ? converted.times(tier.value).dividedBy(100) : new Decimal(tier.value);
  const serviceFee = Decimal.max(raw, tier.minValue).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
  // Shown as charged, so that serviceFee + onChainFee is exactly fee.
  const onChainFee = new Decimal(tier.onChainFee).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
  const fee = serviceFee.plus(onChainFee).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP);
  const num = (d: Decimal | string) => jsonDecimal(decimalText(d));
  return {
    isPercentage: tier.isPercentage,
    value: num(tier.value),
    minValue: num(tier.minValue),
    onChainFee: num(onChainFee),
    currency: input.currency,
    originalCurrency: input.originalCurrency,
    amount: num(input.amount),
    convertedAmount: num(converted),
    rate: input.rate ? num(input.rate) : null,
    serviceFee: num(serviceFee),
    fee: num(fee),
    tier: { fromAmount: num(tier.fromAmount), toAmount: next ? num(next.fromAmount) : null },
    scheduleSource: input.scheduleSource,
  };
}
