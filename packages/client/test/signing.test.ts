import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactJson as protocolCompactJson, sign as protocolSign } from '@hostpay/protocol';
import { canonicalTarget, compactJson, sign, signV2 } from '../src/index.js';
import { loadSigningBodyVectors, loadSigningV2Vectors, loadSigningVectors } from '../../protocol/test/vectors.js';

// The same loader as the protocol's tests: one reader of vectors/signing.json.
const cases = loadSigningVectors();

describe('signing vectors (vectors/signing.json), Web Crypto signer', () => {
  it('has cases to check', () => expect(cases.length).toBeGreaterThanOrEqual(6));
  for (const v of cases) {
    it(`${v.name}: signed string`, () => {
      expect(`${v.timestamp}.${v.rawBody && compactJson(v.rawBody)}`).toBe(v.signedString);
    });
    it(`${v.name}: signature`, async () => {
      await expect(sign(v.secret, v.timestamp, v.rawBody)).resolves.toBe(v.signature);
    });
  }
});

describe('signing vectors with POST bodies (vectors/signing.json bodies), Web Crypto signer', () => {
  for (const v of loadSigningBodyVectors()) {
    it(`${v.name}: compact body and signature`, async () => {
      expect(compactJson(v.rawBody)).toBe(v.compactBody);
      await expect(sign(v.secret, v.timestamp, v.rawBody)).resolves.toBe(v.signature);
      await expect(sign(v.secret, v.timestamp, v.compactBody)).resolves.toBe(v.signature);
    });
  }
});

describe('signing v2 vectors (vectors/signing.json v2), Web Crypto signer', () => {
  for (const v of loadSigningV2Vectors()) {
    it(`${v.name}: canonical target and signature`, async () => {
      expect(canonicalTarget(v.target)).toBe(v.canonicalTarget);
      await expect(signV2(v.secret, v.timestamp, v.method, v.target, v.rawBody)).resolves.toBe(v.signature);
    });
  }
});

describe('agrees with the protocol (Node crypto) signer', () => {
  it('compactJson matches protocol compactJson on any JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 0, max: 4 }), (value, indent) => {
        const text = JSON.stringify(value, null, indent) ?? '';
        expect(compactJson(text)).toBe(protocolCompactJson(text));
      }),
    );
  });
  it('signatures match for arbitrary secrets, timestamps and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.jsonValue(),
        async (secret, ts, body) => {
          const raw = JSON.stringify(body, null, 1) ?? '';
          expect(await sign(secret, String(ts), raw)).toBe(protocolSign(secret, String(ts), raw));
        },
      ),
      { numRuns: 50 },
    );
  });
});
