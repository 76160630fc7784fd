import { Decimal } from '@hostpay/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minusDecimal } from '../ui-kit/decimal.js';

/** The fronts' exact subtraction (available = balance − frozen), against decimal.js. */
describe('minusDecimal', () => {
  it('examples: scales, zeros, negatives', () => {
    expect(minusDecimal('1000.5', '0.25')).toBe('1000.25');
    expect(minusDecimal('5', '5')).toBe('0');
    expect(minusDecimal('0.1', '0.000000000000000001')).toBe('0.099999999999999999');
    expect(minusDecimal('1', '2.5')).toBe('-1.5');
  });

  it('agrees with decimal.js on any two decimals of up to 18 places', () => {
    const dec = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 0, max: 18 }))
      .map(([v, s]) => new Decimal(v.toString()).dividedBy(new Decimal(10).pow(s)).toFixed());
    fc.assert(
      fc.property(dec, dec, (a, b) => {
        expect(minusDecimal(a, b)).toBe(new Decimal(a).minus(b).toFixed());
      }),
    );
  });
});
