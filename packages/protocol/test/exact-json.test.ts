import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  Decimal,
  decimalText,
  hasBuiltinExactJson,
  jsonDecimal,
  parseAmount,
  parseExactJson,
  parseExactJsonBuiltin,
  parseExactJsonPortable,
  writeExactJson,
  writeExactJsonBuiltin,
  writeExactJsonPortable,
} from '../src/index.js';

// Every exactness test runs on both implementations: the hand-written reader and writer (any
// runtime) and the built-in ones (JSON.rawJSON, the reviver's context.source). The built-in must
// exist on the Node CI runs (24): a runtime without it would silently test one path only.
it('the built-in exact JSON exists on this Node, and parseExactJson is the built-in reader', () => {
  expect(hasBuiltinExactJson).toBe(true);
  expect(parseExactJson).toBe(parseExactJsonBuiltin);
  expect(writeExactJson).toBe(writeExactJsonBuiltin);
  // The built-in writer is plain JSON.stringify: a JsonDecimal's toJSON gives its exact text.
  expect(JSON.stringify({ a: jsonDecimal('0.1000000000000000000001'), b: [jsonDecimal('-7')] })).toBe(
    '{"a":0.1000000000000000000001,"b":[-7]}',
  );
});
const READERS = [
  ['hand-written', parseExactJsonPortable],
  ['built-in', parseExactJsonBuiltin],
] as const;
const WRITERS = [
  ['hand-written', writeExactJsonPortable],
  ['built-in', writeExactJsonBuiltin],
] as const;

describe.each(WRITERS)('exact-decimal JSON writer (%s)', (_name, writeExactJson) => {
  it('writes 18 fractional digits exactly as stored', () => {
    const body = writeExactJson({ amount: jsonDecimal('1234.567890123456789012') });
    expect(body).toBe('{"amount":1234.567890123456789012}');
    // JSON.stringify would have rounded it: the reason the writer exists.
    // biome-ignore lint/correctness/noPrecisionLoss: the literal is lossy on purpose, to show the rounding
    expect(JSON.stringify({ amount: 1234.567890123456789012 })).not.toBe(body);
  });
  it('matches JSON.stringify for values without decimals', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(writeExactJson(value)).toBe(JSON.stringify(value));
      }),
    );
  });
  it('round-trips any decimal through write and exact parse', () => {
    const decimal = fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 16n }),
        fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }),
        fc.integer({ min: 0, max: 18 }),
      )
      .map(([int, frac, digits]) =>
        digits === 0 ? `${int}` : `${int}.${frac.toString().padStart(18, '0').slice(0, digits)}`,
      )
      .map((text) => decimalText(text));
    fc.assert(
      fc.property(fc.array(decimal, { maxLength: 5 }), (texts) => {
        const body = writeExactJson({ list: texts.map((t) => ({ v: jsonDecimal(t) })) });
        for (const [, read] of READERS) {
          const back = read(body) as { list: { v: string }[] };
          expect(back.list.map((x) => x.v)).toEqual(texts);
        }
        // The output is valid JSON for every other parser too.
        expect(() => JSON.parse(body)).not.toThrow();
      }),
    );
  });
  it('writes what the other implementation writes, on documents with decimals, dates, escapes and holes', () => {
    const doc = {
      status: true,
      result: [
        { amount: jsonDecimal('1234567890.123456789012345678'), fee: jsonDecimal('-0.000000000000000001'), n: 3 },
        { name: 'quote " backslash \\ \u2028 é 😀', at: new Date(0), skip: undefined, list: [undefined, 1e21, -0] },
      ],
      big: jsonDecimal('1e400'),
    };
    const other = WRITERS.find(([name]) => name !== _name)![1];
    expect(writeExactJson(doc)).toBe(other(doc));
    expect(writeExactJson(doc)).toContain('"amount":1234567890.123456789012345678,"fee":-0.000000000000000001');
  });
  it('rejects a JsonDecimal that is not a number literal', () => {
    expect(() => jsonDecimal('1e')).toThrow(TypeError);
    expect(() => jsonDecimal('NaN')).toThrow(TypeError);
  });
});

describe.each(READERS)('exact JSON reader (%s)', (_name, parseExactJson) => {
  it('parses like JSON.parse apart from numbers', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value, null, 1);
        expect(parseExactJson(text, Number)).toEqual(JSON.parse(text));
      }),
    );
  });
  it('reads every number as its source text, also inside documents JSON.parse would read', () => {
    const seen: string[] = [];
    const v = parseExactJson(
      '{"a":"1.10","b":[1.10,2e-7,{"c":-0.000000000000000001}],"d":null}',
      (s) => (seen.push(s), s),
    );
    expect(seen).toEqual(['1.10', '2e-7', '-0.000000000000000001']);
    expect(v).toEqual({ a: '1.10', b: ['1.10', '2e-7', { c: '-0.000000000000000001' }], d: null });
    // Without numbers nothing is called, and the result is JSON.parse's.
    expect(
      parseExactJson('{"amount":"100","tags":["x",true,null]}', () => {
        throw new Error('called');
      }),
    ).toEqual({ amount: '100', tags: ['x', true, null] });
  });
  it('throws SyntaxError on malformed input', () => {
    for (const bad of ['', '{', '{"a":}', '[1,]', '"x', '{"a":1} x', 'tru']) {
      expect(() => parseExactJson(bad), bad).toThrow(SyntaxError);
    }
  });
  it('does not let __proto__ keys change the prototype', () => {
    const v = parseExactJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });
});

describe('parseAmount', () => {
  it('accepts positive decimals up to 10^15 with 18 fractional digits', () => {
    for (const ok of ['1', '0.000000000000000001', '1000000000000000', '99.95', '007']) {
      expect(parseAmount(ok).ok, ok).toBe(true);
    }
  });
  it('rejects zero, signs, exponents, too many digits and values above 10^15', () => {
    for (const bad of [
      '0',
      '0.0',
      '-1',
      '+1',
      '1e3',
      '1.',
      '.5',
      '1.0000000000000000001',
      '1000000000000000.1',
      'abc',
      '',
      ' 1',
    ]) {
      const r = parseAmount(bad);
      expect(r.ok, bad).toBe(false);
    }
  });
  it('keeps exact values', () => {
    const r = parseAmount('123456789012345.123456789012345678');
    expect(r.ok && r.value.equals(new Decimal('123456789012345.123456789012345678'))).toBe(true);
  });
});
