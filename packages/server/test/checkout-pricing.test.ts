import { Decimal } from '@hostpay/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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

  it('settling credits received − fee, never below zero', () => {
    expect(creditFor(new Decimal('10.5'), new Decimal('0.5')).toFixed()).toBe('10');
    expect(creditFor(new Decimal('0.2'), new Decimal('0.5')).toFixed()).toBe('0');
  });
});
