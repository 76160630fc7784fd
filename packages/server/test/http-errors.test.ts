import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError, merchantHeaders } from './http-helpers/requests.js';

/** 404, 405, 500 and 503 envelopes, request ids, and what reaches the log. */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

describe('unknown routes', () => {
  it('unknown path -> 404 NOT_FOUND envelope', async () => {
    const res = await fx.app.inject({ method: 'GET', url: '/api/v1/nothing?x=1' });
    const err = expectError(res, 404, 'NOT_FOUND');
    expect(err.message).toContain('/api/v1/nothing');
    expect(err.message).not.toContain('x=1');
  });

  it('known path, other method -> 405 METHOD_NOT_ALLOWED with Allow', async () => {
    for (const method of ['POST', 'DELETE', 'PUT', 'PATCH'] as const) {
      const res = await fx.app.inject({ method, url: '/api/v1/cp/wallets/' });
      expectError(res, 405, 'METHOD_NOT_ALLOWED');
      expect(res.headers.allow).toBe('GET, HEAD');
    }
    const res = await fx.app.inject({ method: 'POST', url: '/api/v1/cp/psp/hosted-pay/fees-preview?amount=1' });
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
  });

  it("a malformed URL -> 400 envelope, not Fastify's own body", async () => {
    const err = expectError(
      await fx.app.inject({ method: 'GET', url: '/api/v1/cp/wallets/%E0%A4%A' }),
      400,
      'INVALID_QUERY',
    );
    expect(err.message).toContain('percent-encoding');
  });
});

describe('x-request-id', () => {
  it('echoes a valid incoming id, on success and on error', async () => {
    const ok = await fx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'client-42.a_b-c' } });
    expect(ok.headers['x-request-id']).toBe('client-42.a_b-c');
    const longest = 'x'.repeat(64);
    expect(
      (await fx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': longest } })).headers[
        'x-request-id'
      ],
    ).toBe(longest);
    const err = expectError(
      await fx.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'trace-7' } }),
      404,
      'NOT_FOUND',
    );
    expect(err.error.requestId).toBe('trace-7');
  });

  it('replaces an unusable one', async () => {
    for (const bad of ['has space', 'x'.repeat(65), 'semi;colon', 'a:b', '<script>', 'ünï', '']) {
      const res = await fx.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-z]+$/);
    }
  });

  it('is unique per request', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++)
      ids.add(String((await fx.app.inject({ method: 'GET', url: '/healthz' })).headers['x-request-id']));
    expect(ids.size).toBe(20);
  });
});

describe('internal errors', () => {
  it('500 says "internal error" only; the log has the cause and the request id, not the credentials', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const app = await fx.buildApp({
      logger: { level: 'info', stream },
      merchant: {
        walletListBody: () => Promise.reject(new Error('SQLITE_ERROR near "SELECT secret_sealed FROM api_keys"')),
      },
    });
    const headers = await merchantHeaders(fx, fx.demo);
    const res = await app.inject({ method: 'GET', url: '/api/v1/cp/wallets', headers });
    const err = expectError(res, 500, 'INTERNAL');
    expect(err.message).toBe('internal error');
    expect(res.body).not.toContain('SQLITE');
    expect(err.error.details).toBeUndefined();
    const log = lines.join('');
    expect(log).toContain('SQLITE_ERROR');
    expect(log).toContain(err.error.requestId);
    expect(log).not.toContain(headers.signature);
    expect(log).not.toContain(headers.authorization?.slice(7));
    expect(log).not.toContain(fx.demo.apiSecret);
  });

  it('a completed request is logged on one line without headers', async () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const app = await fx.buildApp({ logger: { level: 'info', stream } });
    const headers = await merchantHeaders(fx, fx.demo);
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/api/v1/cp/wallets', headers });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'request completed', method: 'GET', url: '/api/v1/cp/wallets', statusCode: 200 });
    expect(lines[0]).not.toContain(headers.signature);
  });

  it('readiness failure -> 503 UNAVAILABLE', async () => {
    const app = await fx.buildApp({ merchant: { checkReady: () => Promise.reject(new Error('database is locked')) } });
    const err = expectError(await app.inject({ method: 'GET', url: '/readyz' }), 503, 'UNAVAILABLE');
    expect(err.message).not.toContain('locked');
  });
});
