import { SIGNATURE_PATTERN } from '@hostpay/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormedSignature } from '../src/auth/signature.js';

/**
 * isWellFormedSignature decides whether a request's credentials may enter the verified cache
 * (auth/key-decision.ts); it is written out by hand for speed and must say exactly what
 * SIGNATURE_PATTERN says.
 */
describe('isWellFormedSignature', () => {
  const hex = '0123456789abcdefABCDEFgxyz-_ \n\u00e9\u0660';
  const near = fc.array(fc.constantFrom(...hex), { minLength: 62, maxLength: 66 }).map((chars) => chars.join(''));
  const mostlyHex = fc
    .tuple(fc.stringMatching(/^[0-9a-f]{64}$/), fc.nat(63), fc.constantFrom(...hex))
    .map(([s, i, c]) => s.slice(0, i) + c + s.slice(i + 1));

  it('agrees with SIGNATURE_PATTERN', () => {
    for (const arb of [near, mostlyHex, fc.string(), fc.stringMatching(/^[0-9a-f]{64}$/)]) {
      fc.assert(
        fc.property(arb, (s) => isWellFormedSignature(s) === SIGNATURE_PATTERN.test(s)),
        { numRuns: 2000 },
      );
    }
  });

  it('edges: a trailing newline, upper case, one character short or long', () => {
    const good = 'a'.repeat(32) + '0'.repeat(32);
    expect(isWellFormedSignature(good)).toBe(true);
    for (const bad of [
      `${good}\n`,
      good.toUpperCase(),
      good.slice(1),
      `${good}0`,
      '',
      `${good.slice(1)}g`,
      `${good.slice(1)}/`,
      `${good.slice(1)}:`,
      `${good.slice(1)}\``,
    ])
      expect([isWellFormedSignature(bad), SIGNATURE_PATTERN.test(bad)]).toEqual([false, false]);
  });
});
