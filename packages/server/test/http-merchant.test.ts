import { parseExactJson } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError, merchantHeaders } from './http-helpers/requests.js';
import { describeStores } from './helpers.js';

/** The two merchant endpoints with valid credentials: bodies, headers and query validation. */
describeStores('wallets and fee preview over HTTP', (dialect) => {
  let fx: HttpFixture;
  let headers: Record<string, string>;
  beforeAll(async () => {
    fx = await createFixture({}, {}, dialect);
    headers = await merchantHeaders(fx, fx.demo);
  });
  afterAll(() => fx.close());

  const get = (url: string, h = headers) => fx.app.inject({ method: 'GET', url, headers: h });
  const FEES = '/api/v1/cp/psp/hosted-pay/fees-preview';

  describe('GET /api/v1/cp/wallets', () => {
    it('answers the same bytes with and without the trailing slash', async () => {
      const [a, b] = await Promise.all([get('/api/v1/cp/wallets/'), get('/api/v1/cp/wallets')]);
      expect(a.statusCode, a.body).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(a.body).toBe(b.body);
      expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('sends the services body untouched, exact decimals included', async () => {
      const res = await get('/api/v1/cp/wallets');
      expect(res.body).toBe(await fx.services.merchant.walletListBody(fx.demo.merchantId));
      // 3.141592653589793238 does not survive a binary float: it must reach the wire as written.
      expect(res.body).toContain('3.141592653589793238');
      const body = parseExactJson(res.body) as { status: boolean; isSuccess: boolean; result: unknown[] };
      expect(body.status).toBe(true);
      expect(body.isSuccess).toBe(true);
      expect(body.result).toHaveLength(5);
    });

    it('carries the rate-limit, request-id and no-store headers', async () => {
      const res = await get('/api/v1/cp/wallets/');
      expect(res.headers['ratelimit-limit']).toBe(String(fx.config.rateLimitPerMinute));
      expect(Number(res.headers['ratelimit-remaining'])).toBeLessThan(fx.config.rateLimitPerMinute);
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(res.headers['x-request-id']).toMatch(/^req_/);
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('rejects unknown and repeated query parameters with 400 INVALID_QUERY', async () => {
      const err = expectError(await get('/api/v1/cp/wallets?page=2'), 400, 'INVALID_QUERY');
      expect(err.message).toContain('`page`');
      expect(err.message).toContain('merchantId');
      expectError(
        await get(`/api/v1/cp/wallets?merchantId=${fx.demo.merchantId}&merchantId=${fx.demo.merchantId}`),
        400,
        'INVALID_QUERY',
      );
      expectError(await get('/api/v1/cp/wallets?merchantId=has%20space'), 400, 'INVALID_QUERY');
    });

    it('HEAD answers like GET without a body', async () => {
      const res = await fx.app.inject({ method: 'HEAD', url: '/api/v1/cp/wallets', headers });
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('');
    });
  });

  describe('GET fees-preview', () => {
    it('previews the fee, currency case-insensitive', async () => {
      const res = await get(`${FEES}?amount=250.5&currency=usdt`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).toBe(await get(`${FEES}?currency=USDT&amount=250.5`).then((r) => r.body));
      const body = parseExactJson(res.body) as {
        result: { originalCurrency: string; currency: string; amount: string };
      };
      expect(body.result.originalCurrency).toBe('USDT');
      expect(body.result.amount).toBe('250.5');
    });

    it('passes business-rule errors through (422)', async () => {
      expectError(await get(`${FEES}?amount=10&currency=XYZ`), 422, 'UNSUPPORTED_CURRENCY');
    });

    const amountCases: [string, string][] = [
      ['missing', `${FEES}?currency=USDT`],
      ['empty', `${FEES}?amount=&currency=USDT`],
      ['zero', `${FEES}?amount=0&currency=USDT`],
      ['negative', `${FEES}?amount=-5&currency=USDT`],
      ['exponent', `${FEES}?amount=1e3&currency=USDT`],
      ['19 fractional digits', `${FEES}?amount=1.0000000000000000001&currency=USDT`],
      ['above 10^15', `${FEES}?amount=1000000000000001&currency=USDT`],
      ['comma', `${FEES}?amount=1,5&currency=USDT`],
    ];
    for (const [label, url] of amountCases) {
      it(`amount ${label} -> 400 INVALID_AMOUNT naming the parameter`, async () => {
        const err = expectError(await get(url), 400, 'INVALID_AMOUNT');
        expect(err.message).toContain('`amount`');
        expect(err.message).toContain('e.g. amount=99.95');
      });
    }

    for (const [label, url] of [
      ['missing', `${FEES}?amount=10`],
      ['too long', `${FEES}?amount=10&currency=ABCDEFGHIJKLM`],
      ['symbols', `${FEES}?amount=10&currency=US%24`],
    ] as const) {
      it(`currency ${label} -> 400 INVALID_CURRENCY`, async () => {
        const err = expectError(await get(url), 400, 'INVALID_CURRENCY');
        expect(err.message).toContain('`currency`');
      });
    }

    it('unknown or repeated parameters -> 400 INVALID_QUERY', async () => {
      expectError(await get(`${FEES}?amount=10&currency=USDT&foo=1`), 400, 'INVALID_QUERY');
      const err = expectError(await get(`${FEES}?amount=10&amount=20&currency=USDT`), 400, 'INVALID_QUERY');
      expect(err.message).toContain('more than once');
    });
  });
});
