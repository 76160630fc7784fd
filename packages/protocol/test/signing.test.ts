import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bodyToSign, canonicalTarget, compactJson, sign, signedString, signedStringV2, signV2 } from '../src/index.js';
import { loadSigningV2Vectors, loadSigningVectors } from './vectors.js';

const vectors = loadSigningVectors();
const v2 = loadSigningV2Vectors();

describe('signing v2 vectors (vectors/signing.json v2)', () => {
  it('covers query order, percent-encoding and the trailing slash', () => {
    const names = v2.map((c) => c.name).join(' | ');
    expect(names).toMatch(/query order/);
    expect(names).toMatch(/percent-encod/);
    expect(names).toMatch(/trailing slash/);
  });
  for (const v of v2) {
    it(`${v.name}: canonical target, signed string, signature`, () => {
      expect(canonicalTarget(v.target)).toBe(v.canonicalTarget);
      expect(signedStringV2(v.timestamp, v.method, v.target, v.rawBody)).toBe(v.signedString);
      expect(signV2(v.secret, v.timestamp, v.method, v.target, v.rawBody)).toBe(v.signature);
    });
  }
  it('the same request in two spellings signs the same; another path or method does not', () => {
    const a = signV2('s', '1', 'GET', '/x?b=1&a=2');
    expect(signV2('s', '1', 'get', '/x?a=2&b=%31')).toBe(a);
    expect(signV2('s', '1', 'GET', '/y?b=1&a=2')).not.toBe(a);
    expect(signV2('s', '1', 'POST', '/x?b=1&a=2')).not.toBe(a);
    expect(signV2('s', '1', 'GET', '/x/?b=1&a=2')).not.toBe(a);
  });
  it('canonicalTarget is idempotent', () => {
    fc.assert(fc.property(fc.string(), (s) => {
      const once = canonicalTarget('/' + s);
      expect(canonicalTarget(once)).toBe(once);
    }));
  });
});

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
