import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError, issueToken, signedHeaders } from './http-helpers/requests.js';

/** Per-key request limits and per-address failed-authentication limits. */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture({ authFailureLimitPerMinute: 3 });
});
afterAll(() => fx.close());

const wallets = (headers: Record<string, string>, remoteAddress = '192.0.2.10') =>
  fx.app.inject({ method: 'GET', url: '/api/v1/cp/wallets', headers, remoteAddress });

describe('per API key', () => {
  it('counts down in RateLimit-* headers, then 429 RATE_LIMITED with Retry-After, then recovers', async () => {
    const key = await fx.createKey(fx.demo.merchantId, { rateLimitPerMinute: 4 });
    const token = await issueToken(fx, key); // the token request counts too: 3 left
    const headers = () => ({ ...signedHeaders(fx, key), authorization: `Bearer ${token}` });
    for (const remaining of [2, 1, 0]) {
      const res = await wallets(headers());
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('4');
      expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    }
    const limited = await wallets(headers());
    const err = expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(err.message).toContain('4 requests a minute');

    fx.clock.offsetMs += 61_000;
    try {
      expect((await wallets(headers())).statusCode).toBe(200);
    } finally {
      fx.clock.offsetMs -= 61_000;
    }
  });

  it('other keys are not affected', async () => {
    const busy = await fx.createKey(fx.demo.merchantId, { rateLimitPerMinute: 1 });
    await issueToken(fx, busy);
    expectError(
      await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers: signedHeaders(fx, busy) }),
      429,
      'RATE_LIMITED',
    );
    const calm = await fx.createKey(fx.demo.merchantId);
    const token = await issueToken(fx, calm);
    expect((await wallets({ ...signedHeaders(fx, calm), authorization: `Bearer ${token}` })).statusCode).toBe(200);
  });
});

describe('per client address, failed authentication', () => {
  it('after the limit an address gets 429 before any key check, even with good credentials', async () => {
    const token = await issueToken(fx, fx.demo);
    const good = () => ({ ...signedHeaders(fx, fx.demo), authorization: `Bearer ${token}` });
    const attacker = '198.51.100.66';
    for (let i = 0; i < 3; i++)
      expectError(await wallets({ ...good(), signature: 'f'.repeat(64) }, attacker), 401, 'INVALID_SIGNATURE');
    const blocked = await wallets(good(), attacker);
    expectError(blocked, 429, 'RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Another address is unaffected.
    expect((await wallets(good(), '198.51.100.67')).statusCode).toBe(200);
    // The window passes.
    fx.clock.offsetMs += 61_000;
    try {
      const fresh = await issueToken(fx, fx.demo);
      const res = await wallets({ ...signedHeaders(fx, fx.demo), authorization: `Bearer ${fresh}` }, attacker);
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      fx.clock.offsetMs -= 61_000;
    }
  });

  it('403s (valid credentials, refused) do not count as failed authentication', async () => {
    const key = await fx.createKey(fx.demo.merchantId, { scopes: ['fees:read'] });
    const token = await issueToken(fx, key);
    const address = '198.51.100.90';
    for (let i = 0; i < 5; i++)
      expectError(
        await wallets({ ...signedHeaders(fx, key), authorization: `Bearer ${token}` }, address),
        403,
        'SCOPE_MISSING',
      );
  });
});

describe('client address', () => {
  it('behind a trusted proxy comes from X-Forwarded-For; otherwise the header is ignored', async () => {
    const key = await fx.createKey(fx.demo.merchantId, { ipAllowList: ['203.0.113.0/24'] });
    const proxied = await fx.buildApp({ config: { ...fx.config, trustProxyHops: 1 } });
    const headers = { ...signedHeaders(fx, key), 'x-forwarded-for': '203.0.113.7' };
    const viaProxy = await proxied.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers,
      remoteAddress: '10.0.0.1',
    });
    expect(viaProxy.statusCode, viaProxy.body).toBe(200);
    const direct = await fx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers,
      remoteAddress: '10.0.0.1',
    });
    expectError(direct, 403, 'IP_NOT_ALLOWED');
  });

  it('takes only the hops it trusts: an address the client prepends is not believed', async () => {
    const key = await fx.createKey(fx.demo.merchantId, { ipAllowList: ['203.0.113.0/24'] });
    const proxied = await fx.buildApp({ config: { ...fx.config, trustProxyHops: 1 } });
    // The client sent "203.0.113.7"; the one proxy appended the real client address.
    const headers = { ...signedHeaders(fx, key), 'x-forwarded-for': '203.0.113.7, 198.51.100.66' };
    const res = await proxied.inject({ method: 'POST', url: '/api/v1/auth/token', headers, remoteAddress: '10.0.0.1' });
    expectError(res, 403, 'IP_NOT_ALLOWED');
  });
});
