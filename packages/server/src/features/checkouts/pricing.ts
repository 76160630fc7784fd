import { Decimal } from '@hostpay/protocol';

/**
 * What one payment option of a checkout costs the payer and brings the merchant (the contract's
 * "Money" paragraph), pure and exact:
 * - the locked rate = rate(currency → asset) × (1 + spread / 100), exact, then rounded *up* at 18
 *   fractional digits (the most a stored rate has); rate 1 and no spread when the asset is the
 *   currency (nothing is converted);
 * - a rate the store holds the other way round (asset → currency) is inverted here rounding *up*,
 *   so the locked rate is never below the true one;
 * - amountDue = amount × the locked rate, rounded *up* once, to the asset's display precision
 *   (catalog/display.ts: at most 8 places, an amount a payer can read and copy); the payer never
 *   pays less than the checkout's value plus the spread, and the page, the payment URI and the
 *   detection tolerance all use this one figure;
 * - the fee is converted at the source rate, without the spread: the spread is on the payer's
 *   rate only;
 * - the fee is the fee preview's total, charged in the fee currency, converted into the asset at
 *   the operator's rate and rounded half up to the asset's precision;
 * - netAmount = amountDue − that fee, what the merchant's wallet is credited when exactly
 *   amountDue arrives. An option whose fee would eat the whole amount is not payable.
 */
export interface OptionPricingInput {
  /** The checkout amount, in `currency`. */
  amount: Decimal;
  /** currency → asset; null when the asset is the currency. */
  rate: Decimal | null;
  /** The operator's spread in percent (0..10), applied to `rate`; ignored when `rate` is null. */
  spreadPercent?: Decimal | undefined;
  /** Fractional digits of the asset. */
  assetDecimals: number;
  /** Fractional digits amountDue is rounded up to (catalog/display.ts); default assetDecimals. */
  displayDecimals?: number | undefined;
  /** The stored rate asset → currency when `rate` is its inverse: the locked rate is 1/it, rounded up. */
  inverseOf?: Decimal | null | undefined;
  /** The fee preview's total fee, in its fee currency. */
  fee: Decimal;
  /** fee currency → asset; null when the fee is charged in the asset itself. */
  feeRate: Decimal | null;
}

export interface OptionPricing {
  amountDue: Decimal;
  /** The rate locked for this option until the checkout expires, spread included (1 when the asset is the currency). */
  rate: Decimal;
  /** The spread `rate` includes (0 when the asset is the currency). */
  spreadPercent: Decimal;
  feeInAsset: Decimal;
  netAmount: Decimal;
  /** False when the fee is not below amountDue: the option is not offered. */
  payable: boolean;
}

export function priceOption(input: OptionPricingInput): OptionPricing {
  if (!input.amount.isFinite() || input.amount.lte(0)) throw new RangeError('amount must be positive');
  if (!Number.isInteger(input.assetDecimals) || input.assetDecimals < 0 || input.assetDecimals > 18)
    throw new RangeError('asset precision must be 0..18');
  const inverse = input.rate === null ? null : (input.inverseOf ?? null);
  if (inverse?.lte(0)) throw new RangeError('rate must be positive');
  const source =
    inverse !== null
      ? new Decimal(1).dividedBy(inverse).toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_UP)
      : (input.rate ?? new Decimal(1));
  if (source.lte(0)) throw new RangeError('rate must be positive');
  const display = Math.min(input.displayDecimals ?? input.assetDecimals, input.assetDecimals);
  if (!Number.isInteger(display) || display < 0) throw new RangeError('display precision must be 0..18');
  const spreadPercent = input.rate === null ? new Decimal(0) : (input.spreadPercent ?? new Decimal(0));
  if (spreadPercent.isNegative()) throw new RangeError('spread must not be negative');
  const rate = source
    .times(new Decimal(1).plus(spreadPercent.dividedBy(100)))
    .toDecimalPlaces(RATE_DECIMALS, Decimal.ROUND_UP);
  const amountDue = input.amount.times(rate).toDecimalPlaces(display, Decimal.ROUND_UP);
  const feeInAsset = input.fee.times(input.feeRate ?? 1).toDecimalPlaces(input.assetDecimals, Decimal.ROUND_HALF_UP);
  const netAmount = amountDue.minus(feeInAsset);
  return { amountDue, rate, spreadPercent, feeInAsset, netAmount, payable: netAmount.gt(0) };
}

/** Fractional digits a locked rate keeps (as an inverse rate, fees/preview.ts `resolveRate`). */
export const RATE_DECIMALS = 18;

/** What settling credits when `received` arrived and the fee for it is `feeInAsset` (never below 0). */
export function creditFor(received: Decimal, feeInAsset: Decimal): Decimal {
  return Decimal.max(received.minus(feeInAsset), 0);
}
