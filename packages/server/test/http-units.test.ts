import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ipAllowed, unmapIPv4 } from '../src/auth/cidr.js';
import { readSignedHeaders } from '../src/auth/credentials.js';
import { MemoryRateLimiter } from '../src/auth/rate-limit.js';
import { signatureMatches } from '../src/auth/signature.js';
import { hasScope } from '../src/auth/tokens.js';
import { VerifiedCache } from '../src/auth/verified-cache.js';
import { sign, signV2 } from '@hostpay/protocol';

/** The small pieces of authentication, on their own. */
describe('ipAllowed', () => {
  const cases: [string[], string, boolean][] = [
    [['10.0.0.0/8'], '10.255.1.2', true],
    [['10.0.0.0/8'], '11.0.0.1', false],
    [['10.0.0.0/8'], '::ffff:10.1.1.1', true],
    [['::ffff:10.0.0.0/104'], '10.9.9.9', true],
    [['2001:db8::/32'], '2001:DB8::1', true],
    [['2001:db8::/32'], '::ffff:10.1.1.1', false],
    [['0.0.0.0/0'], '8.8.8.8', true],
    [['::/0'], '2001:db8::1', true],
    [['192.0.2.1'], '192.0.2.1', true],
    [['192.0.2.1'], '192.0.2.2', false],
    [['not-an-ip', '10.0.0.0/'], '10.0.0.1', false],
    [['10.0.0.0/33'], '10.0.0.1', false],
    [[], '10.0.0.1', false],
    [['10.0.0.0/8'], 'garbage', false],
  ];
  for (const [list, address, expected] of cases) {
    it(`${JSON.stringify(list)} ${address} -> ${expected}`, () => expect(ipAllowed(list, address)).toBe(expected));
  }
  it('unmaps IPv4-mapped IPv6 only', () => {
    expect(unmapIPv4('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(unmapIPv4('::FFFF:1.2.3.4')).toBe('1.2.3.4');
    expect(unmapIPv4('::ffff:abcd')).toBe('::ffff:abcd');
  });
});

describe('hasScope', () => {
  it('matches whole words only', () => {
    expect(hasScope('wallets:read fees:read', 'fees:read')).toBe(true);
    expect(hasScope('wallets:read fees:read', 'wallets:read')).toBe(true);
    expect(hasScope('wallets:readx', 'wallets:read')).toBe(false);
    expect(hasScope('xwallets:read', 'wallets:read')).toBe(false);
    expect(hasScope('', 'wallets:read')).toBe(false);
  });
});

describe('signatureMatches', () => {
  const secret = Buffer.from('test-secret');
  it('accepts the compact and the raw form of a JSON body', () => {
    const raw = '{ "a": 1 }';
    const exact = createHmac('sha256', secret).update(`1700000000.${raw}`).digest('hex');
    const v1 = (timestamp: string, rawBody: string) => ({
      version: 1 as const,
      timestamp,
      method: 'POST',
      target: '/x',
      rawBody,
    });
    expect(signatureMatches(secret, v1('1700000000', raw), sign('test-secret', '1700000000', raw))).toBe(true);
    expect(signatureMatches(secret, v1('1700000000', raw), exact)).toBe(true);
    expect(signatureMatches(secret, v1('1700000001', raw), exact)).toBe(false);
  });
  it('version 2 covers method and target, in canonical form', () => {
    const signature = signV2('test-secret', '1700000000', 'GET', '/a?y=2&x=1');
    const v2 = (method: string, target: string) => ({
      version: 2 as const,
      timestamp: '1700000000',
      method,
      target,
      rawBody: '',
    });
    expect(signatureMatches(secret, v2('GET', '/a?x=1&y=2'), signature)).toBe(true);
    expect(signatureMatches(secret, v2('GET', '/b?x=1&y=2'), signature)).toBe(false);
    expect(signatureMatches(secret, v2('HEAD', '/a?x=1&y=2'), signature)).toBe(false);
    expect(signatureMatches(secret, { ...v2('GET', '/a?x=1&y=2'), version: 1 }, signature)).toBe(false);
  });
  it('rejects malformed signatures without throwing', () => {
    for (const bad of ['', 'abc', 'G'.repeat(64), 'A'.repeat(64), 'a'.repeat(63), 'a'.repeat(65)]) {
      expect(
        signatureMatches(secret, { version: 1, timestamp: '1', method: 'GET', target: '/', rawBody: '' }, bad),
      ).toBe(false);
    }
  });
});

describe('readSignedHeaders', () => {
  it('treats empty values as missing', () => {
    expect(() => readSignedHeaders({ 'api-key': '', timestamp: '1', signature: 'x' }, false)).toThrow(/`api-key`/);
  });
  it('ignores Authorization when no bearer is needed', () => {
    expect(readSignedHeaders({ 'api-key': 'k', timestamp: '1', signature: 's' }, false).authorization).toBe('');
  });
});

describe('MemoryRateLimiter', () => {
  it('counts per bucket in fixed windows', async () => {
    let now = 0;
    const rl = new MemoryRateLimiter({ now: () => now });
    expect(await rl.hit('a', 2, 60_000)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
    expect((await rl.hit('a', 2, 60_000)).allowed).toBe(true);
    expect(await rl.hit('a', 2, 60_000)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 60 });
    expect((await rl.hit('b', 2, 60_000)).allowed).toBe(true);
    expect((await rl.peek('a', 2, 60_000)).allowed).toBe(false);
    now = 30_500;
    expect((await rl.peek('a', 2, 60_000)).resetSeconds).toBe(30);
    now = 60_000;
    expect((await rl.peek('a', 2, 60_000)).allowed).toBe(true);
    expect((await rl.hit('a', 2, 60_000)).remaining).toBe(1);
  });
  it('sweeps expired windows and caps the number of buckets', async () => {
    let now = 0;
    const rl = new MemoryRateLimiter({ now: () => now, maxBuckets: 100 });
    for (let i = 0; i < 500; i++) await rl.hit(`ip${i}`, 5, 60_000);
    expect(rl.size).toBeLessThanOrEqual(100);
    now = 120_000;
    await rl.hit('late', 5, 60_000);
    expect(rl.size).toBe(1);
  });
});

describe('VerifiedCache', () => {
  const secret = Buffer.from('s');
  const entry = (expiresAt: number) => ({ secret, authorization: 'Bearer t', claims: null, expiresAt });
  it('hits only for the same secret object, authorization and an unexpired entry', () => {
    const c = new VerifiedCache();
    c.set('k', '1', 'sig', entry(1000));
    expect(c.get('k', '1', 'sig', secret, 'Bearer t', 999)).toBeDefined();
    expect(c.get('k', '1', 'sig', secret, 'Bearer t', 1000)).toBeUndefined();
    expect(c.get('k', '1', 'sig', Buffer.from('s'), 'Bearer t', 0)).toBeUndefined();
    expect(c.get('k', '1', 'sig', secret, 'Bearer u', 0)).toBeUndefined();
    expect(c.get('k', '2', 'sig', secret, 'Bearer t', 0)).toBeUndefined();
  });
  it('stays within its cap', () => {
    const c = new VerifiedCache(100);
    for (let i = 0; i < 1000; i++) c.set('k', String(i), 'sig', entry(10_000));
    // The most recent entries are the ones kept.
    expect(c.seen('k', '999', 'sig', 'Bearer t', 0)).toBe(true);
    expect(c.seen('k', '0', 'sig', 'Bearer t', 0)).toBe(false);
    expect(c.size).toBeLessThanOrEqual(100);
  });
});

describe('failed-auth address blocks', async () => {
  const { addressBlock } = await import('../src/auth/failure-limit.js');
  it('counts IPv4 per address and IPv6 per /64', () => {
    expect(addressBlock('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBlock('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBlock('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressBlock('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressBlock('::1')).toBe('0:0:0:0::/64');
  });
});
