import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bodyToSign, compactJson, sign, signedString } from '../src/index.js';
import { loadSigningVectors } from './vectors.js';

const vectors = loadSigningVectors();

describe('signing vectors (vectors/signing.json)', () => {
  it('has cases to check', () => expect(vectors.length).toBeGreaterThanOrEqual(6));
  for (const v of vectors) {
    it(`${v.name}: signed string`, () => {
      expect(signedString(v.timestamp, bodyToSign(v.rawBody))).toBe(v.signedString);
    });
    it(`${v.name}: signature`, () => {
      expect(sign(v.secret, v.timestamp, v.rawBody)).toBe(v.signature);
    });
  }
});

describe('compactJson', () => {
  it('keeps whitespace inside strings and escapes untouched', () => {
    expect(compactJson('{ "a b" : "x \\" y" , "c":[ 1 , 2 ] }')).toBe('{"a b":"x \\" y","c":[1,2]}');
  });
  it('keeps key order and number text exactly (unlike JSON.parse/stringify)', () => {
    expect(compactJson('{"b": 1, "1": 1.50, "big": 12345678901234567890}')).toBe('{"b":1,"1":1.50,"big":12345678901234567890}');
  });
  it('equals JSON.stringify(JSON.parse(x)) for any value without integer-like keys or lossy numbers', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 0, max: 4 }), (value, indent) => {
        const compact = JSON.stringify(value);
        if (/"\d+":/.test(compact) || /\d[eE]/.test(compact) || compact.includes('-0')) return;
        expect(compactJson(JSON.stringify(value, null, indent))).toBe(compact);
      }),
    );
  });
  it('leaves a non-JSON body as it is', () => {
    expect(compactJson('a = b')).toBe('a = b');
  });
});
