import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimals, plainDecimal, refundShare, sumDecimals, toHostpayAmount } from '../src/amounts.js';
import { planRefund, type RefundableCheckout } from '../src/refunds.js';

/** Medusa's BigNumber as the provider receives it: `raw.value` exact, `numeric` a float. */
const medusaBigNumber = (value: string) => ({ numeric: Number(value), raw: { value, precision: 20 } });

describe('Medusa amounts → hostpay decimal text', () => {
  it('numbers are sent as their shortest decimal text, never a float expansion or an exponent', () => {
    expect(toHostpayAmount(10)).toBe('10');
    expect(toHostpayAmount(0.1)).toBe('0.1');
    expect(toHostpayAmount(19.99)).toBe('19.99');
    expect(toHostpayAmount(1e-7)).toBe('0.0000001');
    expect(toHostpayAmount(1e21)).toBe('1000000000000000000000');
  });

  it("Medusa's BigNumber is read from its exact raw value, not its float", () => {
    const exact = '123456789012345.123456789012345678';
    expect(Number(exact).toString()).not.toBe(exact);
    expect(toHostpayAmount(medusaBigNumber(exact))).toBe(exact);
    expect(toHostpayAmount({ value: '42.50', precision: 20 })).toBe('42.5');
    expect(toHostpayAmount({ toFixed: () => '7.000100' })).toBe('7.0001');
    expect(toHostpayAmount('0012.3400')).toBe('12.34');
    expect(toHostpayAmount(12n)).toBe('12');
    expect(toHostpayAmount(medusaBigNumber('1.5e-7'))).toBe('0.00000015');
  });

  it('zero, negatives, non-numbers and more than 18 fractional digits are refused, not rounded', () => {
    for (const bad of [0, '0.000', -1, '-5', 'abc', Number.NaN, Number.POSITIVE_INFINITY, null, undefined, {}])
      expect(() => toHostpayAmount(bad as never), String(bad)).toThrow(RangeError);
    expect(() => toHostpayAmount('0.1234567890123456789')).toThrow(/18 fractional digits/);
    expect(toHostpayAmount('0.123456789012345678')).toBe('0.123456789012345678');
  });

  it('plainDecimal writes any exponent form out in full (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: 0, max: 30 }), (digits, scale) => {
        const text = digits.toString().padStart(scale + 1, '0');
        const plain = `${text.slice(0, text.length - scale)}${scale ? `.${text.slice(text.length - scale)}` : ''}`;
        const expo = `${digits}e-${scale}`;
        expect(compareDecimals(plainDecimal(expo)!, plain)).toBe(0);
        expect(plainDecimal(expo)).toBe(plainDecimal(plain));
      }),
    );
  });
});

describe('refund shares', () => {
  it('a full refund gives back exactly what was received; a part the same part, rounded down', () => {
    expect(refundShare('100', '100', '105.123456', 6)).toBe('105.123456');
    expect(refundShare('150', '100', '105.123456', 6)).toBe('105.123456');
    expect(refundShare('30', '100', '105.123456', 6)).toBe('31.537036'); // 31.5370368 floored
    expect(refundShare('1', '3', '1', 8)).toBe('0.33333333');
    expect(refundShare('0.01', '19.99', '19.99', 2)).toBe('0.01');
  });

  it('never exceeds the share it stands for (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_00 }),
        fc.integer({ min: 1, max: 10_000_00 }),
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.integer({ min: 0, max: 8 }),
        (a, b, rec, scale) => {
          const [refund, total] = a <= b ? [a, b] : [b, a];
          const received = (rec / 1000).toFixed(3);
          const share = refundShare((refund / 100).toFixed(2), (total / 100).toFixed(2), received, scale);
          // share × total ≤ received × refund, exactly (scaled integers)
          const lhs =
            BigInt(share.replace('.', '').padEnd(1, '0')) * 10n ** BigInt(18 - (share.split('.')[1]?.length ?? 0));
          const rhs = BigInt(received.replace('.', '')) * 10n ** 15n;
          expect(lhs * BigInt(total)).toBeLessThanOrEqual(rhs * BigInt(refund));
          // A whole refund is everything received, exactly (hostpay's precision covers what it
          // received); a part is rounded down to the asset's precision.
          if (refund === total) expect(share).toBe(plainDecimal(received));
          else expect(share.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(scale);
        },
      ),
    );
  });

  const checkout = (payments: RefundableCheckout['payments']): RefundableCheckout => ({
    id: 'chk_1',
    status: 'settled',
    amount: '50',
    currency: 'EUR',
    paymentOptions: [
      { asset: 'USDT', chain: 'TRON', amountDue: '54.123456' },
      { asset: 'BTC', chain: 'BTC', amountDue: '0.00052' },
    ],
    payments,
  });

  it('plans in the asset the payer paid, summing its payments, ignoring retracted ones', () => {
    const c = checkout([
      { asset: 'USDT', chain: 'TRON', amount: '20', retracted: false },
      { asset: 'USDT', chain: 'TRON', amount: '99', retracted: true },
      { asset: 'USDT', chain: 'TRON', amount: '34.123456', retracted: false },
    ]);
    expect(sumDecimals(['20', '34.123456'])).toBe('54.123456');
    expect(planRefund(c, '50')).toEqual({ amount: '54.123456', asset: 'USDT', chain: 'TRON' });
    expect(planRefund(c, '25')).toEqual({ amount: '27.061728', asset: 'USDT', chain: 'TRON' });
  });

  it('a checkout that received nothing, or a refund below one unit of the asset, is refused', () => {
    expect(() => planRefund(checkout([]), '10')).toThrow(/received nothing/);
    const c = checkout([{ asset: 'BTC', chain: 'BTC', amount: '0.00052', retracted: false }]);
    // 0.000104 is floored to the 5 places hostpay wrote the amount due and the payment with.
    expect(planRefund(c, '10')).toEqual({ amount: '0.0001', asset: 'BTC', chain: 'BTC' });
    expect(() => planRefund(c, '0.00001')).toThrow(/smallest unit/);
  });
});
