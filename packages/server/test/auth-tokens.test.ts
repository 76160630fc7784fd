import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTokenCodec } from '../src/auth/tokens.js';

/**
 * The token codec answers a token it verified from memory (auth/tokens.ts): what a cached answer
 * must never change is which tokens are accepted, and until when.
 */
const claims = (expSeconds: number) => ({
  sub: 'mer_1',
  key: 'key_1',
  scope: 'wallets:read',
  jti: 'jti_1',
  iat: expSeconds - 3600,
  exp: expSeconds,
});
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('bearer token verification', () => {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const codec = createTokenCodec(randomBytes(32));
  const token = codec.issue(claims(exp));

  it('accepts its own token again and again, with the same claims', () => {
    const first = codec.verify(token, Date.now());
    expect(first).toMatchObject({ sub: 'mer_1', key: 'key_1', scope: 'wallets:read', exp });
    expect(codec.verify(token, Date.now())).toEqual(first);
  });

  it('refuses a remembered token once the server clock passes its expiry, and keeps refusing it', () => {
    expect(codec.verify(token, Date.now())).toBeDefined();
    expect(codeOf(() => codec.verify(token, exp * 1000))).toBe('TOKEN_EXPIRED');
    expect(codeOf(() => codec.verify(token, exp * 1000 + 1))).toBe('TOKEN_EXPIRED');
  });

  it('refuses an altered copy of a remembered token, and a token of another key', () => {
    const other = createTokenCodec(randomBytes(32));
    const fresh = other.issue(claims(exp));
    expect(other.verify(fresh, Date.now())).toBeDefined();
    const [head, body, sig] = fresh.split('.') as [string, string, string];
    const flipped = `${head}.${body}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(codeOf(() => other.verify(flipped, Date.now()))).toBe('INVALID_TOKEN');
    expect(codeOf(() => codec.verify(fresh, Date.now()))).toBe('INVALID_TOKEN');
  });
});
