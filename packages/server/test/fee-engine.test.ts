import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal, writeExactJson } from '@hostpay/protocol';
import { quoteFee, type FeeQuoteInput, type FeeTierInput } from '../src/features/fees/engine.js';
import { HostpayError } from '../src/errors.js';

const tier = (t: Partial<FeeTierInput>): FeeTierInput => ({
  fromAmount: '0',
  isPercentage: true,
  value: '1',
  minValue: '0',
  onChainFee: '0',
  ...t,
});
const input = (amount: string, tiers: FeeTierInput[], extra: Partial<FeeQuoteInput> = {}): FeeQuoteInput => ({
  amount: new Decimal(amount),
  originalCurrency: 'USDT',
  currency: 'USDT',
  currencyDecimals: 6,
  rate: null,
  tiers,
  scheduleSource: 'default',
  ...extra,
});
/** The quote as a client would read it: JSON with exact numbers as strings. */
const q = (i: FeeQuoteInput) =>
  JSON.parse(writeExactJson(quoteFee(i)).replace(/:(-?[0-9.]+)/g, ':"$1"')) as Record<string, unknown>;

describe('fee engine', () => {
  it('percentage of the amount', () => {
    expect(q(input('200', [tier({ value: '1.5' })]))).toMatchObject({
      isPercentage: true,
      serviceFee: '3',
      fee: '3',
      value: '1.5',
    });
  });
  it('fixed fee ignores the amount', () => {
    const r = q(input('123456', [tier({ isPercentage: false, value: '2.5' })]));
    expect(r).toMatchObject({ isPercentage: false, serviceFee: '2.5', fee: '2.5' });
  });
  it('minimum raises a small fee, not a large one', () => {
    expect(q(input('10', [tier({ value: '1.5', minValue: '1' })]))).toMatchObject({ serviceFee: '1', fee: '1' });
    expect(q(input('1000', [tier({ value: '1.5', minValue: '1' })]))).toMatchObject({ serviceFee: '15', fee: '15' });
  });
  it('on-chain fee is added on top of the minimum', () => {
    expect(q(input('10', [tier({ value: '1.5', minValue: '1', onChainFee: '0.8' })]))).toMatchObject({
      serviceFee: '1',
      fee: '1.8',
      onChainFee: '0.8',
    });
  });
  it('tiers: the lower bound is inclusive, the next bound exclusive', () => {
    const tiers = [
      tier({ value: '1.5' }),
      tier({ fromAmount: '10000', value: '1' }),
      tier({ fromAmount: '100000', value: '0.5' }),
    ];
    expect(q(input('9999.999999', tiers))).toMatchObject({
      value: '1.5',
      tier: { fromAmount: '0', toAmount: '10000' },
    });
    expect(q(input('10000', tiers))).toMatchObject({
      value: '1',
      fee: '100',
      tier: { fromAmount: '10000', toAmount: '100000' },
    });
    expect(q(input('100000', tiers))).toMatchObject({
      value: '0.5',
      fee: '500',
      tier: { fromAmount: '100000', toAmount: null },
    });
  });
  it('an amount below the lowest tier is NO_FEE_SCHEDULE with the bound in the message', () => {
    try {
      quoteFee(input('5', [tier({ fromAmount: '10' })]));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(HostpayError);
      expect((err as HostpayError).code).toBe('NO_FEE_SCHEDULE');
      expect((err as HostpayError).message).toContain('starts at 10');
    }
  });
  it('rounds to the fee currency precision, half up', () => {
    // 1.5 % of 0.0333335 = 0.000500002..., 6 dp -> 0.0005; of 0.0333 -> 0.0004995 -> 0.0005 (half up)
    expect(q(input('0.0333', [tier({ value: '1.5' })]))).toMatchObject({ serviceFee: '0.0005' });
    expect(q(input('1.23', [tier({ value: '1' })], { currencyDecimals: 2 }))).toMatchObject({ serviceFee: '0.01' });
    expect(q(input('1.5', [tier({ value: '1' })], { currencyDecimals: 2 }))).toMatchObject({ serviceFee: '0.02' });
  });
  it('keeps an unconverted amount as asked (no rounding when there is no rate)', () => {
    expect(q(input('0.0000001', [tier({ value: '1', onChainFee: '0.0000004' })]))).toMatchObject({
      amount: '0.0000001',
      convertedAmount: '0.0000001',
      onChainFee: '0',
      fee: '0',
    });
  });

  it('converts into the fee currency at the rate before applying the percentage', () => {
    const r = q(
      input('100', [tier({ value: '2.5', minValue: '0.5' })], {
        originalCurrency: 'EUR',
        currency: 'USDT',
        rate: new Decimal('1.0842'),
      }),
    );
    expect(r).toMatchObject({
      originalCurrency: 'EUR',
      currency: 'USDT',
      rate: '1.0842',
      amount: '100',
      convertedAmount: '108.42',
      serviceFee: '2.7105',
      fee: '2.7105',
    });
  });
  it('keeps 18 fractional digits exact (no float on the way)', () => {
    const r = q(input('0.000000000000000001', [tier({ value: '100' })], { currencyDecimals: 18 }));
    expect(r).toMatchObject({ amount: '0.000000000000000001', serviceFee: '0.000000000000000001' });
    const big = q(input('999999999999999.999999', [tier({ value: '0.5' })]));
    expect(big).toMatchObject({ serviceFee: '5000000000000', convertedAmount: '999999999999999.999999' });
  });
  it('fee is never below minValue + onChainFee and never negative (property)', () => {
    const dec = (max: number) => fc.integer({ min: 0, max }).map((n) => new Decimal(n).dividedBy(1000).toFixed());
    fc.assert(
      fc.property(
        dec(10_000_000),
        dec(100_000),
        dec(5_000),
        dec(5_000),
        fc.boolean(),
        (amount, value, min, chain, pct) => {
          if (amount === '0') return;
          const r = quoteFee(
            input(amount, [
              tier({
                value: pct ? String(Math.min(Number(value), 100)) : value,
                minValue: min,
                onChainFee: chain,
                isPercentage: pct,
              }),
            ]),
          );
          const fee = new Decimal(String(r.fee));
          expect(fee.gte(new Decimal(min).plus(chain).toDecimalPlaces(6))).toBe(true);
          expect(
            fee.equals(
              new Decimal(String(r.serviceFee)).plus(String(r.onChainFee)).toDecimalPlaces(6, Decimal.ROUND_HALF_UP),
            ),
          ).toBe(true);
        },
      ),
    );
  });
});
