import { Decimal as DecimalJs } from 'decimal.js';

/**
 * The one Decimal used for money everywhere. 60 significant digits hold 10^15 with 18 fractional
 * digits and the products of fee arithmetic with room to spare; exponents are never printed.
 */
export const Decimal = DecimalJs.clone({
  precision: 60,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -100,
  toExpPos: 100,
});
export type Decimal = InstanceType<typeof Decimal>;

/** Largest accepted checkout amount (PRODUCT.md: at most 10^15). */
export const MAX_AMOUNT = new Decimal('1e15');
export const MAX_FRACTION_DIGITS = 18;

/** A plain decimal literal: digits, optional fraction, no sign, no exponent. */
export const DECIMAL_PATTERN = '^[0-9]{1,16}(\\.[0-9]{1,18})?$';
const DECIMAL_RE = new RegExp(DECIMAL_PATTERN);

export type AmountCheck = { ok: true; value: Decimal } | { ok: false; reason: string };

/** Validates a positive amount as a merchant sends it (query string or CLI argument). */
export function parseAmount(text: string): AmountCheck {
  if (!DECIMAL_RE.test(text)) {
    return {
      ok: false,
      reason:
        'must be a positive decimal number written with digits and an optional dot (e.g. 100 or 99.95), with at most 18 fractional digits and no sign or exponent',
    };
  }
  const value = new Decimal(text);
  if (value.lte(0)) return { ok: false, reason: 'must be greater than 0' };
  if (value.gt(MAX_AMOUNT)) return { ok: false, reason: 'must be at most 1000000000000000 (10^15)' };
  return { ok: true, value };
}

/** Canonical text of a decimal: no exponent, no trailing fractional zeros ("1.50" -> "1.5"). */
export function decimalText(value: Decimal | string): string {
  return (typeof value === 'string' ? new Decimal(value) : value).toFixed();
}
