import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestMetrics } from '../src/observability/request-metrics.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError, merchantHeaders } from './http-helpers/requests.js';

/**
 * The hot request path (bench/HISTORY.md, issue 11 item 5): a request repeating credentials
 * accepted a moment ago, with its key and answer cached, is decided and answered without waiting
 * on a promise. What an integrator and an operator see must not change with it: these tests pin
 * the headers, bodies, limits, log lines and counts of repeated requests.
 */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

const WALLETS = '/api/v1/cp/wallets';
const FEES = '/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT';

describe('repeated requests (same credentials, cached key and answer)', () => {
  for (const url of [WALLETS, FEES]) {
    it(`${url}: every repeat carries the same headers and body as the first answer`, async () => {
      const key = await fx.createKey(fx.demo.merchantId, { rateLimitPerMinute: 100 });
      const headers = await merchantHeaders(fx, key);
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await fx.app.inject({ method: 'GET', url, headers }));
      const [first, ...repeats] = answers;
      expect(first!.statusCode, first!.body).toBe(200);
      const names = Object.keys(first!.headers)
        .filter((h) => h !== 'date')
        .sort();
      // Signed with version 1 (merchantHeaders): deprecation, link and sunset too.
      expect(names).toEqual([
        'cache-control',
        'connection',
        'content-length',
        'content-type',
        'deprecation',
        'link',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'sunset',
        'x-request-id',
      ]);
      for (const [i, res] of answers.entries()) {
        expect(res.statusCode).toBe(200);
        expect(res.body).toBe(first!.body);
        expect(
          Object.keys(res.headers)
            .filter((h) => h !== 'date')
            .sort(),
        ).toEqual(names);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.headers['ratelimit-limit']).toBe('100');
        // The token request counted once; each of these once more.
        expect(res.headers['ratelimit-remaining']).toBe(String(100 - 2 - i));
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      }
      // A fresh request id each time.
      expect(new Set(answers.map((r) => r.headers['x-request-id'])).size).toBe(answers.length);
      expect(repeats).toHaveLength(3);
    });
  }

  it('the rate limit holds on repeats: over the limit -> 429 with Retry-After and the RateLimit headers', async () => {
    const key = await fx.createKey(fx.demo.merchantId, { rateLimitPerMinute: 3 });
    const headers = await merchantHeaders(fx, key); // the token request is the first of 3
    expect((await fx.app.inject({ method: 'GET', url: WALLETS, headers })).statusCode).toBe(200);
    expect((await fx.app.inject({ method: 'GET', url: WALLETS, headers })).statusCode).toBe(200);
    const over = await fx.app.inject({ method: 'GET', url: WALLETS, headers });
    expectError(over, 429, 'RATE_LIMITED');
    expect(over.headers['ratelimit-remaining']).toBe('0');
    expect(over.headers['ratelimit-limit']).toBe('3');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.headers['cache-control']).toBe('no-store');
  });

  it('revoking the key refuses the very next repeat of an accepted request', async () => {
    const key = await fx.createKey(fx.demo.merchantId);
    const headers = await merchantHeaders(fx, key);
    expect((await fx.app.inject({ method: 'GET', url: WALLETS, headers })).statusCode).toBe(200);
    expect((await fx.app.inject({ method: 'GET', url: WALLETS, headers })).statusCode).toBe(200);
    await fx.revokeKey(key.apiKey);
    expectError(await fx.app.inject({ method: 'GET', url: WALLETS, headers }), 403, 'KEY_REVOKED');
  });

  it('a repeat on a route the token does not cover is refused by scope', async () => {
    const key = await fx.createKey(fx.demo.merchantId, { scopes: ['wallets:read'] });
    const headers = await merchantHeaders(fx, key);
    expect((await fx.app.inject({ method: 'GET', url: WALLETS, headers })).statusCode).toBe(200);
    expectError(await fx.app.inject({ method: 'GET', url: FEES, headers }), 403, 'SCOPE_MISSING');
    expectError(await fx.app.inject({ method: 'GET', url: FEES, headers }), 403, 'SCOPE_MISSING');
  });

  it('the services answer a cached key and cached bodies as plain values (no promise)', async () => {
    await fx.app.inject({ method: 'GET', url: WALLETS, headers: await merchantHeaders(fx, fx.demo) });
    const m = fx.services.merchant;
    expect(m.findApiKey(fx.demo.apiKey)).not.toBeInstanceOf(Promise);
    expect(typeof m.walletListBody(fx.demo.merchantId)).toBe('string');
    // An unknown key is cached as missing: undefined, at once, the second time.
    await m.findApiKey('hp_nosuchkey');
    expect(m.findApiKey('hp_nosuchkey')).toBeUndefined();
  });
});

/** Lines written by an app's pino logger at `level`, and that app. */
async function loggedApp(level: string): Promise<{ app: FastifyInstance; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()),
  });
  return { app: await fx.buildApp({ logger: { level, stream } }), lines };
}

const count = (text: string, labels: string): number =>
  Number(
    new RegExp(`^hostpay_http_requests_total\\{${labels.replace(/[/.?]/g, '\\$&')}\\} (\\d+)$`, 'm').exec(text)?.[1] ??
      0,
  );

describe('request counts and access lines, with and without a logger', () => {
  it('at info: every response is counted exactly and logged on one line', async () => {
    const { app, lines } = await loggedApp('info');
    const headers = await merchantHeaders(fx, fx.demo);
    for (let i = 0; i < 5; i++)
      expect((await app.inject({ method: 'GET', url: WALLETS, headers })).statusCode).toBe(200);
    await app.inject({ method: 'GET', url: '/api/v1/nothing' });
    await app.inject({ method: 'GET', url: WALLETS });
    const text = await app.hostpayMetrics.text();
    expect(count(text, 'route="/api/v1/cp/wallets",method="GET",status="200"')).toBe(5);
    expect(count(text, 'route="unmatched",method="GET",status="404"')).toBe(1);
    expect(count(text, 'route="/api/v1/cp/wallets",method="GET",status="401"')).toBe(1);
    expect(text).toMatch(
      /^hostpay_http_request_duration_seconds_count\{route="\/api\/v1\/cp\/wallets",method="GET",status="200"\} 5$/m,
    );
    const completed = lines.filter((l) => l.msg === 'request completed');
    // The token request, 5 lists, the 404, the 401 (the /metrics line is written after it answers).
    expect(completed.filter((l) => l.url === WALLETS && l.statusCode === 200)).toHaveLength(5);
    expect(completed.filter((l) => l.url === '/api/v1/nothing' && l.statusCode === 404)).toHaveLength(1);
    for (const l of completed) {
      expect(Object.keys(l)).toEqual([
        'level',
        'time',
        'pid',
        'hostname',
        'reqId',
        'method',
        'url',
        'statusCode',
        'ms',
        'msg',
      ]);
      expect(typeof l.ms).toBe('number');
    }
  });

  it('at warn: counted exactly, no access lines', async () => {
    const { app, lines } = await loggedApp('warn');
    const headers = await merchantHeaders(fx, fx.demo);
    for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: FEES, headers })).statusCode).toBe(200);
    const text = await app.hostpayMetrics.text();
    expect(count(text, 'route="/api/v1/cp/psp/hosted-pay/fees-preview",method="GET",status="200"')).toBe(3);
    expect(lines.filter((l) => l.msg === 'request completed')).toEqual([]);
  });

  it('without a logger (log level silent): counted exactly by the onResponse hook', async () => {
    const app = await fx.buildApp({ logger: false });
    const headers = await merchantHeaders(fx, fx.demo);
    for (let i = 0; i < 4; i++)
      expect((await app.inject({ method: 'GET', url: WALLETS, headers })).statusCode).toBe(200);
    await app.inject({ method: 'GET', url: '/api/v1/nothing' });
    const text = await app.hostpayMetrics.text();
    expect(count(text, 'route="/api/v1/cp/wallets",method="GET",status="200"')).toBe(4);
    expect(count(text, 'route="unmatched",method="GET",status="404"')).toBe(1);
  });
});

describe('RequestMetrics series lookup', () => {
  it('one series per (route, method, status), found again by the same labels, gone after reset', () => {
    const m = new RequestMetrics();
    const a = m.series('/w', 'GET', 200);
    expect(m.series('/w', 'GET', 200)).toBe(a);
    expect(m.series('/w', 'HEAD', 200)).not.toBe(a);
    expect(m.series('/w', 'GET', 404)).not.toBe(a);
    expect(m.series('/v', 'GET', 200)).not.toBe(a);
    const [counter] = m.collectors({ requests: 'r', latency: 'l' });
    counter!.reset();
    expect(m.series('/w', 'GET', 200)).not.toBe(a);
  });
});
