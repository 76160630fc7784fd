import { createHash } from 'node:crypto';
import { sign, signedString, signedStringV2, signV2 } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture, type TestKey } from './http-helpers/fixture.js';
import { expectError, issueToken, unixSeconds } from './http-helpers/requests.js';

/** Signature version 2: method and target signed; keys that require it; sandbox diagnostics. */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

const WALLETS = '/api/v1/cp/wallets';
const FEES = '/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT';

function v2Headers(
  key: TestKey,
  method: string,
  url: string,
  body = '',
  timestamp = unixSeconds(fx.now()),
): Record<string, string> {
  return {
    'api-key': key.apiKey,
    timestamp,
    'signature-version': '2',
    signature: signV2(key.apiSecret, timestamp, method, url, body),
  };
}
function v1Headers(key: TestKey, body = '', timestamp = unixSeconds(fx.now())): Record<string, string> {
  return { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, body) };
}
const get = (url: string, headers: Record<string, string>) => fx.app.inject({ method: 'GET', url, headers });

async function requireV2(key: TestKey): Promise<void> {
  await fx.services.admin.updateApiKey(key.apiKey, { requireSignatureV2: true }, { operator: 'test' });
}

describe('version 2 is accepted for every key', () => {
  it('GET with the query in another order than signed, and POST with a JSON body', async () => {
    const tokenBody = '{ "expiresIn": 600 }';
    const tokenRes = await fx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: { ...v2Headers(fx.demo, 'POST', '/api/v1/auth/token', tokenBody), 'content-type': 'application/json' },
      payload: tokenBody,
    });
    expect(tokenRes.statusCode, tokenRes.body).toBe(200);
    const token = (tokenRes.json() as { result: { accessToken: string } }).result.accessToken;
    const signedFor = '/api/v1/cp/psp/hosted-pay/fees-preview?currency=USDT&amount=100';
    const res = await get(FEES, { ...v2Headers(fx.demo, 'GET', signedFor), authorization: `Bearer ${token}` });
    expect(res.statusCode, res.body).toBe(200);
  });

  for (const [label, method, url] of [
    ['another path', 'GET', FEES],
    ['the same path with a trailing slash', 'GET', `${WALLETS}/`],
    ['another method on the same path', 'POST', WALLETS],
  ] as const) {
    it(`a version-2 signature for GET ${WALLETS} replayed on ${label} -> 401 INVALID_SIGNATURE`, async () => {
      const token = await issueToken(fx, fx.demo);
      const headers = { ...v2Headers(fx.demo, 'GET', WALLETS), authorization: `Bearer ${token}` };
      // Used once where it belongs (and so cached as verified), then replayed.
      expect((await get(WALLETS, headers)).statusCode).toBe(200);
      const replay = method === 'GET' ? await get(url, headers) : await fx.app.inject({ method, url, headers });
      if (method === 'POST')
        expect(replay.statusCode).toBe(405); // no such route: refused before auth
      else expectError(replay, 401, 'INVALID_SIGNATURE');
    });
  }

  it('a version-2 signature dressed as a version-1 header that spells its cache entry is refused on another route', async () => {
    const token = await issueToken(fx, fx.demo);
    const headers: Record<string, string> = { ...v2Headers(fx.demo, 'GET', WALLETS), authorization: `Bearer ${token}` };
    expect((await get(WALLETS, headers)).statusCode).toBe(200);
    // The verified-credentials cache once keyed v2 entries "<hex> 2 <METHOD> <target>" and v1 entries
    // by the raw header: a v1 header spelling that key replayed the v2 signature anywhere.
    const { 'signature-version': _v, ...v1 } = headers;
    for (const spelled of [`${headers.signature!} 2 GET ${WALLETS}`, `2 ${headers.signature!} GET ${WALLETS}`]) {
      expectError(await get(FEES, { ...v1, signature: spelled }), 401, 'INVALID_SIGNATURE');
    }
  });

  it('a version-2 GET signature cannot obtain a token (the token route is another target)', async () => {
    const headers = v2Headers(fx.demo, 'GET', WALLETS);
    expectError(await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers }), 401, 'INVALID_SIGNATURE');
  });

  it('signature-version other than 1 or 2 -> 401 INVALID_SIGNATURE naming the header', async () => {
    const err = expectError(
      await fx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        headers: { ...v2Headers(fx.demo, 'POST', '/api/v1/auth/token'), 'signature-version': '3' },
      }),
      401,
      'INVALID_SIGNATURE',
    );
    expect(err.message).toContain('signature-version');
  });
});

describe('a key that requires version 2', () => {
  it('refuses a correct version-1 signature with SIGNATURE_V2_REQUIRED, on the token route and on data routes', async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    const token = await issueToken(fx, key);
    await requireV2(key);
    const err = expectError(
      await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers: v1Headers(key) }),
      401,
      'SIGNATURE_V2_REQUIRED',
    );
    expect(err.message).toContain('signature-version: 2');
    // The v1 signature captured from a GET cannot be replayed on any route.
    const captured = { ...v1Headers(key), authorization: `Bearer ${token}` };
    expectError(await get(WALLETS, captured), 401, 'SIGNATURE_V2_REQUIRED');
    expectError(await get(FEES, captured), 401, 'SIGNATURE_V2_REQUIRED');
    expect(
      (await get(WALLETS, { ...v2Headers(key, 'GET', WALLETS), authorization: `Bearer ${token}` })).statusCode,
    ).toBe(200);
  });

  it('a wrong version-1 signature is still INVALID_SIGNATURE (the requirement is not told to strangers)', async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    await requireV2(key);
    expectError(
      await fx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        headers: { ...v1Headers(key), signature: 'a'.repeat(64) },
      }),
      401,
      'INVALID_SIGNATURE',
    );
  });

  it('a version-1 success cached before the switch does not survive it', async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    const token = await issueToken(fx, key);
    const headers = { ...v1Headers(key), authorization: `Bearer ${token}` };
    expect((await get(WALLETS, headers)).statusCode).toBe(200);
    await requireV2(key);
    expectError(await get(WALLETS, headers), 401, 'SIGNATURE_V2_REQUIRED');
  });

  it('rotation keeps the requirement; the admin API shows and changes it', async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    await requireV2(key);
    const rotated = await fx.services.admin.rotateApiKey(key.apiKey, undefined, { operator: 'test' });
    expect(rotated.new.requireSignatureV2).toBe(true);
    const back = await fx.services.admin.updateApiKey(
      rotated.new.apiKey,
      { requireSignatureV2: false },
      { operator: 'test' },
    );
    expect(back.requireSignatureV2).toBe(false);
  });
});

describe('sandbox diagnostics', () => {
  let sandbox: HttpFixture;
  beforeAll(async () => {
    sandbox = await createFixture({ sandbox: true });
  });
  afterAll(() => sandbox.close());
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('INVALID_SIGNATURE carries the SHA-256 and length of the string the server verified (v1 and v2), never the string', async () => {
    const timestamp = unixSeconds(sandbox.now());
    const body = '{ "expiresIn": 600 }';
    for (const [headers, expected] of [
      [
        { 'api-key': sandbox.demo.apiKey, timestamp, signature: sign('wrong', timestamp, body) },
        signedString(timestamp, '{"expiresIn":600}'),
      ],
      [
        {
          'api-key': sandbox.demo.apiKey,
          timestamp,
          'signature-version': '2',
          signature: signV2('wrong', timestamp, 'POST', '/api/v1/auth/token', body),
        },
        signedStringV2(timestamp, 'POST', '/api/v1/auth/token', body),
      ],
    ] as const) {
      const res = await sandbox.app.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: body,
      });
      const err = expectError(res, 401, 'INVALID_SIGNATURE');
      expect(err.error.details).toMatchObject({
        signedStringSha256: sha256(expected),
        signedStringLength: Buffer.byteLength(expected),
      });
      expect(res.body).not.toContain(expected);
      expect(res.body).not.toContain(sandbox.demo.apiSecret);
    }
  });

  it('a sandbox says so on /healthz (production says sandbox: false)', async () => {
    expect((await sandbox.app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
      result: { status: 'alive', sandbox: true },
    });
    expect((await fx.app.inject({ method: 'GET', url: '/healthz' })).json()).toMatchObject({
      result: { status: 'alive', sandbox: false },
    });
  });

  it('TIMESTAMP_OUT_OF_WINDOW carries the skew', async () => {
    const timestamp = String(Math.floor(sandbox.now() / 1000) - 300);
    const err = expectError(
      await sandbox.app.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        headers: v1Headers(sandbox.demo, '', timestamp),
      }),
      401,
      'TIMESTAMP_OUT_OF_WINDOW',
    );
    expect(err.error.details?.skewSeconds).toBeGreaterThanOrEqual(-301);
    expect(err.error.details?.skewSeconds).toBeLessThanOrEqual(-299);
  });

  it('production answers carry the cause code only: no diagnostics', async () => {
    const timestamp = unixSeconds(fx.now());
    const bad = expectError(
      await fx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        headers: { 'api-key': fx.demo.apiKey, timestamp, signature: sign('wrong', timestamp) },
      }),
      401,
      'INVALID_SIGNATURE',
    );
    expect(bad.error.details).toBeUndefined();
    const stale = expectError(
      await fx.app.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        headers: v1Headers(fx.demo, '', String(Number(timestamp) - 300)),
      }),
      401,
      'TIMESTAMP_OUT_OF_WINDOW',
    );
    expect(stale.error.details).not.toHaveProperty('skewSeconds');
  });
});
