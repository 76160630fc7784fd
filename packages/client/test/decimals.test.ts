import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Checkout, FeePreview, Invoice, MerchantSummary, PaymentLink, Payout, Wallet } from '@hostpay/protocol';
import { DECIMAL_FIELDS, decimalText } from '../src/index.js';
import { parseJson } from '../src/decimals.js';

describe('parseJson', () => {
  it('keeps 18 fractional digits of decimal fields exactly, as strings', () => {
    const doc = parseJson('{"amount": 1234567890.123456789012345678, "fee":0.000000000000000001}', 'string');
    expect(doc).toEqual({ amount: '1234567890.123456789012345678', fee: '0.000000000000000001' });
  });
  it('leaves other numbers as numbers, and null decimals as null', () => {
    const doc = parseJson(
      '{"rate":null,"expiresIn":3600,"tier":{"fromAmount":-0.5,"toAmount":null},"n":[1,2.5]}',
      'string',
    );
    expect(doc).toEqual({ rate: null, expiresIn: 3600, tier: { fromAmount: '-0.5', toAmount: null }, n: [1, 2.5] });
  });
  it('does not touch numbers in arrays under a decimal key, nor text inside strings', () => {
    const text = '{"amount":[1,2],"note":"\\"amount\\":5, \\"fee\\": 7","value":"12.5"}';
    expect(parseJson(text, 'string')).toEqual({ amount: [1, 2], note: '"amount":5, "fee": 7', value: '12.5' });
  });
  it("gives numbers in 'number' mode", () => {
    expect(parseJson('{"amount":0.1}', 'number')).toEqual({ amount: 0.1 });
  });
  it('equals JSON.parse on any JSON without decimal fields', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        if (DECIMAL_FIELDS.some((f) => text.includes(`"${f}"`))) return;
        expect(parseJson(text, 'string')).toEqual(JSON.parse(text));
      }),
    );
  });
  it('throws SyntaxError on malformed JSON', () => {
    expect(() => parseJson('{"amount":', 'string')).toThrow(SyntaxError);
    expect(() => parseJson('{"amount":"x', 'string')).toThrow(SyntaxError);
    expect(() => parseJson('<html>', 'string')).toThrow(SyntaxError);
  });
});

describe('decimalText', () => {
  it('passes strings and bigints through', () => {
    expect(decimalText('0.000000000000000001')).toBe('0.000000000000000001');
    expect(decimalText(123456789012345678901234567890n)).toBe('123456789012345678901234567890');
  });
  it('writes numbers without an exponent', () => {
    expect(decimalText(0.1)).toBe('0.1');
    expect(decimalText(100)).toBe('100');
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText(1.25e-10)).toBe('0.000000000125');
    expect(decimalText(1e21)).toBe('1000000000000000000000');
    expect(decimalText(1.5e22)).toBe('15000000000000000000000');
  });
  it('expands any finite number to the same value', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = decimalText(n);
        expect(text).not.toMatch(/e/i);
        expect(Number(text)).toBe(n === 0 ? 0 : n);
      }),
    );
  });
  it('uses toFixed() of decimal objects (decimal.js, big.js, bignumber.js)', () => {
    expect(decimalText({ toFixed: () => '99.950000000000000001' })).toBe('99.950000000000000001');
  });
});

/** Just the JSON Schema shape the test walks. */
interface TSchemaLike {
  type?: string;
  properties?: Record<string, TSchemaLike>;
  anyOf?: TSchemaLike[];
  items?: TSchemaLike;
}

describe('DECIMAL_FIELDS', () => {
  it('is exactly the set of exact-number fields of the protocol schemas', () => {
    const found = new Set<string>();
    const walk = (schema: TSchemaLike): void => {
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        const variants = prop.anyOf ?? [prop];
        if (variants.some((v) => v.type === 'number')) found.add(name);
        variants.forEach(walk);
        if (prop.items) walk(prop.items);
      }
    };
    walk(Wallet as TSchemaLike);
    walk(FeePreview as TSchemaLike);
    walk(Checkout as TSchemaLike);
    walk(Payout as TSchemaLike);
    walk(MerchantSummary as TSchemaLike);
    walk(PaymentLink as TSchemaLike);
    walk(Invoice as TSchemaLike);
    expect([...found].sort()).toEqual([...DECIMAL_FIELDS].sort());
  });
});
