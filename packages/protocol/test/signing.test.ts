import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bodyToSign, canonicalTarget, compactJson, sign, signedString, signedStringV2, signV2 } from '../src/index.js';
import { createHmac } from 'node:crypto';
import { loadSigningBodyVectors, loadSigningV2Vectors, loadSigningVectors } from './vectors.js';

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
  it('a path of unreserved characters and slashes is its own canonical form; an escape or a query is not kept as sent', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9\-._~/]*$/), (s) => {
        expect(canonicalTarget(`/${s}`)).toBe(`/${s}`);
      }),
    );
    expect(canonicalTarget('/api/v1/cp/%7Ewallets')).toBe('/api/v1/cp/~wallets');
    expect(canonicalTarget('/api/v1/cp/a%2fb')).toBe('/api/v1/cp/a%2Fb');
    expect(canonicalTarget('/x?b=1&a=2')).toBe('/x?a=2&b=1');
    expect(canonicalTarget('/x?')).toBe('/x');
  });
  it('canonicalTarget is idempotent', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const once = canonicalTarget('/' + s);
        expect(canonicalTarget(once)).toBe(once);
      }),
    );
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

describe('signing vectors with POST bodies (vectors/signing.json bodies)', () => {
  const bodies = loadSigningBodyVectors();
  it('covers unicode, \\u escapes, nesting, exact decimals, key order and whitespace', () => {
    const names = bodies.map((c) => c.name).join(' | ');
    for (const topic of [/unicode/, /escapes/, /nested/, /decimals/, /key order/, /whitespace/])
      expect(names).toMatch(topic);
  });
  for (const v of bodies) {
    it(`${v.name}: compact body, signed string, signature (v1 and v2 body part)`, () => {
      expect(compactJson(v.rawBody)).toBe(v.compactBody);
      expect(compactJson(v.compactBody)).toBe(v.compactBody); // compacting twice changes nothing
      expect(signedString(v.timestamp, bodyToSign(v.rawBody))).toBe(v.signedString);
      expect(sign(v.secret, v.timestamp, v.rawBody)).toBe(v.signature);
      expect(sign(v.secret, v.timestamp, v.compactBody)).toBe(v.signature);
      expect(signedStringV2(v.timestamp, 'POST', '/x', v.rawBody)).toBe(`${v.timestamp}.POST./x.${v.compactBody}`);
    });
    it(`${v.name}: rawSignature is the HMAC of the raw text`, () => {
      expect(createHmac('sha256', v.secret).update(`${v.timestamp}.${v.rawBody}`).digest('hex')).toBe(v.rawSignature);
      expect(v.rawSignature).not.toBe(v.signature);
    });
  }
});

describe('compactJson', () => {
  it('keeps whitespace inside strings and escapes untouched', () => {
    expect(compactJson('{ "a b" : "x \\" y" , "c":[ 1 , 2 ] }')).toBe('{"a b":"x \\" y","c":[1,2]}');
  });
  it('keeps key order and number text exactly (unlike JSON.parse/stringify)', () => {
    expect(compactJson('{"b": 1, "1": 1.50, "big": 12345678901234567890}')).toBe(
      '{"b":1,"1":1.50,"big":12345678901234567890}',
    );
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
