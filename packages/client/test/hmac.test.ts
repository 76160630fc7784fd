import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacHex, hmacImplementation, webCryptoHmacHex } from '../src/hmac.js';
import { loadSigningVectors } from '../../protocol/test/vectors.js';

const cases = loadSigningVectors();

describe('hmacHex', () => {
  it("uses Node's createHmac on Node (process.getBuiltinModule exists from Node 20.16)", () => {
    expect(typeof process.getBuiltinModule).toBe('function');
    expect(hmacImplementation).toBe('node');
    // Synchronous: no promise and no thread-pool hop per request.
    expect(typeof hmacHex('k', 't')).toBe('string');
  });

  it('both implementations give the vectors’ signatures', async () => {
    for (const v of cases) {
      expect(await hmacHex(v.secret, v.signedString), v.name).toBe(v.signature);
      expect(await webCryptoHmacHex(v.secret, v.signedString), v.name).toBe(v.signature);
    }
  });

  it('Web Crypto and Node agree on any secret and text (UTF-8 either way, lone surrogates included)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        async (secret, text) => {
          const expected = createHmac('sha256', secret).update(text).digest('hex');
          expect(hmacHex(secret, text)).toBe(expected);
          expect(await webCryptoHmacHex(secret, text)).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('Web Crypto keeps the right key when secrets alternate', async () => {
    const [a, b] = await Promise.all([webCryptoHmacHex('one', 'x'), webCryptoHmacHex('two', 'x')]);
    expect(a).toBe(createHmac('sha256', 'one').update('x').digest('hex'));
    expect(b).toBe(createHmac('sha256', 'two').update('x').digest('hex'));
  });
});
