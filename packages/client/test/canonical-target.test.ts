import { canonicalTarget as protocolCanonicalTarget, compactJson as protocolCompactJson } from '@hostpay/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTarget, compactJson } from '../src/signing.js';

// The client keeps its own copy of the signing rules (it has no dependencies); these properties
// hold it to the protocol's, byte for byte, on inputs far beyond the vectors.
const segment = fc.stringMatching(/^[A-Za-z0-9._~%+!*'()$&=,;:@ -]{0,12}$/);
const target = fc
  .tuple(fc.array(segment, { maxLength: 5 }), fc.boolean(), fc.array(fc.tuple(segment, segment), { maxLength: 5 }))
  .map(
    ([segs, slash, pairs]) =>
      `/${segs.join('/')}${slash ? '/' : ''}${pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`,
  );

describe("the client's signing rules equal the protocol's", () => {
  it('canonical request target (signature version 2)', () => {
    fc.assert(
      fc.property(fc.oneof(target, fc.string({ maxLength: 40 })), (t) => {
        expect(canonicalTarget(t)).toBe(protocolCanonicalTarget(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('compact JSON body', () => {
    const json = fc
      .jsonValue({ maxDepth: 3 })
      .chain((v) => fc.integer({ min: 0, max: 3 }).map((indent) => JSON.stringify(v, null, indent)));
    fc.assert(
      fc.property(fc.oneof(json, fc.string({ maxLength: 40 })), (body) => {
        expect(compactJson(body)).toBe(protocolCompactJson(body));
      }),
      { numRuns: 1000 },
    );
  });
});
