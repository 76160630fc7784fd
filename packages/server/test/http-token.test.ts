import { createDecoder } from 'fast-jwt';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '@hostpay/protocol';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError, requestToken, signedHeaders, unixSeconds } from './http-helpers/requests.js';
import { describeStores } from './helpers.js';

/** POST /api/v1/auth/token: issuance, body signing (compact and raw), body limits and types. */
describeStores('API key tokens', (dialect) => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture({}, {}, dialect);
  });
  afterAll(() => fx.close());

  const decode = createDecoder();
  const URL = '/api/v1/auth/token';
  const post = (headers: Record<string, string>, payload?: string) =>
    fx.app.inject({ method: 'POST', url: URL, headers, ...(payload === undefined ? {} : { payload }) });
  type TokenBody = {
    result: { accessToken: string; tokenType: string; expiresIn: number; expiresAt: string; scope: string[] };
  };

  describe('issuing', () => {
    it('without a body: a JWT bound to the key, default lifetime, the scopes of the key (the demo key: every one)', async () => {
      const before = Math.floor(fx.now() / 1000);
      const res = await requestToken(fx, fx.demo);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const { result } = res.json() as TokenBody;
      expect(result).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600, scope: [...SCOPES] });
      const claims = decode(result.accessToken) as Record<string, unknown>;
      expect(claims).toMatchObject({
        iss: 'hostpay',
        sub: fx.demo.merchantId,
        key: fx.demo.apiKey,
        scope: SCOPES.join(' '),
      });
      expect(claims.jti).toEqual(expect.any(String));
      expect(claims.iat).toBeGreaterThanOrEqual(before);
      expect(claims.exp).toBe((claims.iat as number) + 3600);
      expect(result.expiresAt).toBe(new Date((claims.exp as number) * 1000).toISOString());
    });

    it('every token is distinct (jti)', async () => {
      const a = (await requestToken(fx, fx.demo)).json() as TokenBody;
      const b = (await requestToken(fx, fx.demo)).json() as TokenBody;
      expect(a.result.accessToken).not.toBe(b.result.accessToken);
    });

    it('empty body with Content-Type: application/json counts as {}', async () => {
      const res = await post({ ...signedHeaders(fx, fx.demo), 'content-type': 'application/json' }, '');
      expect(res.statusCode, res.body).toBe(200);
    });

    it('honours expiresIn and a narrowed scope', async () => {
      const res = await requestToken(fx, fx.demo, '{"expiresIn": 600, "scope": ["fees:read"]}');
      expect(res.statusCode, res.body).toBe(200);
      const { result } = res.json() as TokenBody;
      expect(result.expiresIn).toBe(600);
      expect(result.scope).toEqual(['fees:read']);
    });

    it('a scope the key lacks -> 403 SCOPE_MISSING', async () => {
      const key = await fx.createKey(fx.demo.merchantId, { scopes: ['wallets:read'] });
      const err = expectError(await requestToken(fx, key, '{"scope":["fees:read"]}'), 403, 'SCOPE_MISSING');
      expect(err.error.details).toEqual({ missingScopes: ['fees:read'] });
      expectError(await requestToken(fx, key, '{"scope":["admin:everything"]}'), 403, 'SCOPE_MISSING');
    });
  });

  describe('body signature', () => {
    const pretty = '{\n  "expiresIn": 900,\n  "scope": [ "wallets:read" ]\n}';
    const send = (signature: string, timestamp: string) =>
      post(
        { 'api-key': fx.demo.apiKey, timestamp, signature, 'content-type': 'application/json; charset=utf-8' },
        pretty,
      );

    it('accepts a signature over the compact re-serialisation', async () => {
      const timestamp = unixSeconds(fx.now());
      const compact = '{"expiresIn":900,"scope":["wallets:read"]}';
      const res = await send(
        createHmac('sha256', fx.demo.apiSecret).update(`${timestamp}.${compact}`).digest('hex'),
        timestamp,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as TokenBody).result.expiresIn).toBe(900);
    });

    it('accepts a signature over the exact raw body', async () => {
      const timestamp = unixSeconds(fx.now());
      const res = await send(
        createHmac('sha256', fx.demo.apiSecret).update(`${timestamp}.${pretty}`).digest('hex'),
        timestamp,
      );
      expect(res.statusCode, res.body).toBe(200);
    });

    it('rejects a signature over another body, or over no body', async () => {
      const timestamp = unixSeconds(fx.now());
      const other = createHmac('sha256', fx.demo.apiSecret).update(`${timestamp}.{"expiresIn":901}`).digest('hex');
      expectError(await send(other, timestamp), 401, 'INVALID_SIGNATURE');
      const empty = createHmac('sha256', fx.demo.apiSecret).update(`${timestamp}.`).digest('hex');
      expectError(await send(empty, timestamp), 401, 'INVALID_SIGNATURE');
    });
  });

  describe('body checks', () => {
    const withBody = (body: string, contentType = 'application/json') =>
      post({ ...signedHeaders(fx, fx.demo, { body }), 'content-type': contentType }, body);

    for (const body of [
      '{"expiresIn":59}',
      '{"expiresIn":86401}',
      '{"expiresIn":"3600"}',
      '{"expiresIn":3600.5}',
      '{"scope":"fees:read"}',
      '{"unknown":1}',
      '[]',
      'null',
      '"text"',
    ]) {
      it(`${body} -> 400 INVALID_BODY`, async () => {
        const err = expectError(await withBody(body), 400, 'INVALID_BODY');
        expect(err.message).toContain('request body');
      });
    }

    it('malformed JSON -> 400 INVALID_BODY', async () => {
      const err = expectError(await withBody('{"expiresIn": '), 400, 'INVALID_BODY');
      expect(err.message).toContain('not valid JSON');
    });

    it('prototype poisoning -> 400 INVALID_BODY', async () => {
      expectError(await withBody('{"__proto__":{"admin":true}}'), 400, 'INVALID_BODY');
    });

    it('a non-JSON content type -> 415 UNSUPPORTED_MEDIA_TYPE', async () => {
      const err = expectError(
        await withBody('expiresIn=600', 'application/x-www-form-urlencoded'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expect(err.message).toContain('application/json');
      expectError(await withBody('{"expiresIn":600}', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('a body without a content type -> 415', async () => {
      const body = '{"expiresIn":600}';
      expectError(await post(signedHeaders(fx, fx.demo, { body }), body), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('a body over 4 KiB -> 413 PAYLOAD_TOO_LARGE', async () => {
      const body = JSON.stringify({ scope: Array.from({ length: 16 }, () => 'x'.repeat(300)) });
      expect(body.length).toBeGreaterThan(4096);
      const err = expectError(await withBody(body), 413, 'PAYLOAD_TOO_LARGE');
      expect(err.message).toContain('4096');
    });
  });

  describe('authentication', () => {
    it('needs the three key headers and no bearer', async () => {
      const err = expectError(await post({}), 401, 'MISSING_HEADER');
      expect(err.error.details).toEqual({ missing: ['api-key', 'timestamp', 'signature'] });
      expect(err.message).not.toContain('Bearer');
    });

    it('rejects a wrong signature and an unknown key alike (401)', async () => {
      const headers = signedHeaders(fx, fx.demo);
      expectError(await post({ ...headers, signature: 'a'.repeat(64) }), 401, 'INVALID_SIGNATURE');
      expectError(await post({ ...headers, 'api-key': 'hp_unknown' }), 401, 'UNKNOWN_API_KEY');
    });

    it('a revoked key gets no token', async () => {
      const key = await fx.createKey(fx.demo.merchantId);
      await fx.revokeKey(key.apiKey);
      expectError(await requestToken(fx, key), 403, 'KEY_REVOKED');
    });

    it('GET on the token path -> 405 with Allow: POST', async () => {
      const res = await fx.app.inject({ method: 'GET', url: URL });
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe('POST');
    });
  });
});
