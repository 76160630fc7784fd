import { Decimal } from '@hostpay/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayDecimals } from '../src/features/catalog/display.js';
import { creditFor, priceOption } from '../src/features/checkouts/pricing.js';

const decimal = (maxDp: number, min = 0.000001, max = 1_000_000) =>
  fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .map((n) => new Decimal(n.toFixed(maxDp)).plus(new Decimal(10).pow(-maxDp)));

describe('checkout option pricing', () => {
  it('the worked example: 100 EUR at 1.0834 USDT/EUR (6 dp), fee 1.5 EUR', () => {
    const p = priceOption({
      amount: new Decimal(100),
      rate: new Decimal('1.0834'),
      assetDecimals: 6,
      fee: new Decimal('1.5'),
      feeRate: new Decimal('1.0834'),
    });
    expect(p.amountDue.toFixed()).toBe('108.34');
    expect(p.feeInAsset.toFixed()).toBe('1.6251');
    expect(p.netAmount.toFixed()).toBe('106.7149');
    expect(p.payable).toBe(true);
  });

  it('rounds amountDue up to the asset precision: the payer never pays less than the value', () => {
    const p = priceOption({
      amount: new Decimal('10'),
      rate: new Decimal('0.0000153'),
      assetDecimals: 8,
      fee: new Decimal(0),
      feeRate: null,
    });
    expect(p.amountDue.toFixed()).toBe('0.000153');
    const q = priceOption({
      amount: new Decimal('1'),
      rate: new Decimal('0.333333333'),
      assetDecimals: 2,
      fee: new Decimal(0),
      feeRate: null,
    });
    expect(q.amountDue.toFixed()).toBe('0.34');
  });

  it('rate 1 when the asset is the currency', () => {
    const p = priceOption({
      amount: new Decimal('25.5'),
      rate: null,
      assetDecimals: 6,
      fee: new Decimal('0.5'),
      feeRate: null,
    });
    expect([p.amountDue.toFixed(), p.rate.toFixed(), p.netAmount.toFixed()]).toEqual(['25.5', '1', '25']);
  });

  it('a fee that eats the whole amount makes the option not payable', () => {
    expect(
      priceOption({ amount: new Decimal('1'), rate: null, assetDecimals: 2, fee: new Decimal('1'), feeRate: null })
        .payable,
    ).toBe(false);
  });

  it('for any amount, rate and fee: due covers the value by less than one unit, and net + fee = due exactly', () => {
    fc.assert(
      fc.property(
        decimal(6),
        decimal(8, 0.00000001, 100_000),
        fc.integer({ min: 0, max: 18 }),
        decimal(4, 0, 50),
        (amount, rate, dp, fee) => {
          const p = priceOption({ amount, rate, assetDecimals: dp, fee, feeRate: rate });
          const exact = amount.times(rate);
          const unit = new Decimal(10).pow(-dp);
          expect(p.amountDue.gte(exact)).toBe(true);
          expect(p.amountDue.minus(exact).lt(unit)).toBe(true);
          expect(p.amountDue.decimalPlaces()).toBeLessThanOrEqual(dp);
          expect(p.feeInAsset.decimalPlaces()).toBeLessThanOrEqual(dp);
          expect(p.netAmount.plus(p.feeInAsset).eq(p.amountDue)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a spread raises the payer rate exactly, rounded up at 18 fractional digits; the fee conversion has none', () => {
    const p = priceOption({
      amount: new Decimal('100'),
      rate: new Decimal('0.123456789012345678'),
      spreadPercent: new Decimal('0.0001'),
      assetDecimals: 8,
      fee: new Decimal('1'),
      feeRate: new Decimal('0.5'),
    });
    // 0.123456789012345678 × 1.000001 = 0.123456912469134690345678 → up at 18 places.
    expect(p.rate.toFixed()).toBe('0.123456912469134691');
    expect(p.amountDue.toFixed()).toBe('12.34569125');
    expect(p.spreadPercent.toFixed()).toBe('0.0001');
    expect(p.feeInAsset.toFixed()).toBe('0.5');
    // Nothing converted: no spread.
    const same = priceOption({
      amount: new Decimal('7'),
      rate: null,
      spreadPercent: new Decimal('5'),
      assetDecimals: 2,
      fee: new Decimal(0),
      feeRate: null,
    });
    expect([same.rate.toFixed(), same.spreadPercent.toFixed(), same.amountDue.toFixed()]).toEqual(['1', '0', '7']);
  });

  it('for any rate and spread 0..10 %: the locked rate is rate × (1 + spread/100) to within 10^-18 above, amountDue covers it', () => {
    fc.assert(
      fc.property(
        decimal(6),
        decimal(8, 0.00000001, 100_000),
        fc.integer({ min: 0, max: 100_000 }).map((n) => new Decimal(n).dividedBy(10_000)),
        fc.integer({ min: 0, max: 18 }),
        (amount, rate, spread, dp) => {
          const p = priceOption({
            amount,
            rate,
            spreadPercent: spread,
            assetDecimals: dp,
            fee: new Decimal(0),
            feeRate: null,
          });
          const exact = rate.times(new Decimal(1).plus(spread.dividedBy(100)));
          expect(p.rate.gte(exact)).toBe(true);
          expect(p.rate.minus(exact).lt(new Decimal(10).pow(-18))).toBe(true);
          expect(p.rate.decimalPlaces()).toBeLessThanOrEqual(18);
          expect(p.amountDue.gte(amount.times(exact))).toBe(true);
          expect(p.amountDue.eq(amount.times(p.rate).toDecimalPlaces(dp, Decimal.ROUND_UP))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('25 EUR at 3,000 EUR/ETH (a stored ETH→EUR rate, inverted): 0.00833334 ETH, not 0.008333333333333325', () => {
    const stored = new Decimal(3000);
    const p = priceOption({
      amount: new Decimal(25),
      // As fees/preview.ts resolveRate hands it over: the inverse rounded half up, and the stored rate.
      rate: new Decimal(1).dividedBy(stored).toDecimalPlaces(18, Decimal.ROUND_HALF_UP),
      inverseOf: stored,
      assetDecimals: 18,
      displayDecimals: displayDecimals(18),
      fee: new Decimal(0),
      feeRate: null,
    });
    expect(p.amountDue.toFixed()).toBe('0.00833334');
    expect(p.amountDue.gte(new Decimal(25).dividedBy(3000))).toBe(true);
  });

  it('for any price, stored rate (either way round), spread and precision: amountDue ≥ price / rate × (1 + spread) and has ≤ the display decimals', () => {
    fc.assert(
      fc.property(
        decimal(2, 0.01, 10_000_000),
        decimal(8, 0.00000001, 10_000_000),
        fc.boolean(),
        fc.integer({ min: 0, max: 1000 }).map((n) => new Decimal(n).dividedBy(100)),
        fc.integer({ min: 0, max: 18 }),
        (price, stored, inverted, spread, decimals) => {
          // inverted: the store holds asset → currency (1 ETH = 3000 EUR); else currency → asset.
          const exactRate = inverted ? new Decimal(1).dividedBy(stored) : stored;
          const p = priceOption({
            amount: price,
            rate: inverted ? exactRate.toDecimalPlaces(18, Decimal.ROUND_HALF_UP) : stored,
            inverseOf: inverted ? stored : null,
            spreadPercent: spread,
            assetDecimals: decimals,
            displayDecimals: displayDecimals(decimals),
            fee: new Decimal(0),
            feeRate: null,
          });
          const value = price.times(exactRate).times(new Decimal(1).plus(spread.dividedBy(100)));
          expect(p.amountDue.gte(value), `${p.amountDue} < ${value}`).toBe(true);
          expect(p.amountDue.decimalPlaces()).toBeLessThanOrEqual(Math.min(decimals, 8));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('settling credits received − fee, never below zero', () => {
    expect(creditFor(new Decimal('10.5'), new Decimal('0.5')).toFixed()).toBe('10');
    expect(creditFor(new Decimal('0.2'), new Decimal('0.5')).toFixed()).toBe('0');
  });
});
