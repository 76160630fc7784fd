import { ErrorEnvelope, sign } from '@hostpay/protocol';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { issueToken, unixSeconds } from './http-helpers/requests.js';

/**
 * Whatever a client sends, the answer is a well-formed envelope and never a 5xx: random
 * headers against every route, and random queries with valid credentials on the merchant routes.
 */
let fx: HttpFixture;
let token: string;
beforeAll(async () => {
  fx = await createFixture({ rateLimitPerMinute: 1_000_000 });
  token = await issueToken(fx, fx.demo);
});
afterAll(() => fx.close());

const PATHS = [
  '/api/v1/cp/wallets/',
  '/api/v1/cp/wallets',
  '/api/v1/cp/psp/hosted-pay/fees-preview',
  '/api/v1/auth/token',
];
const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.stringMatching(/^[0-9a-f]{64}$/),
  fc.stringMatching(/^[0-9]{1,14}$/),
  fc.constant(''),
);
const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.stringMatching(/^[0-9]{1,17}(\.[0-9]{1,20})?$/),
  fc.constantFrom('USDT', 'usdt', 'EUR', 'BTC', 'XYZ', 'eth', '0', '1e5', '-1', ''),
);
const query = fc.array(fc.tuple(fc.constantFrom('amount', 'currency', 'merchantId', 'foo', 'amount'), queryValue), {
  maxLength: 4,
});
const toQuery = (pairs: [string, string][]) =>
  pairs.length === 0 ? '' : '?' + pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');

function checkEnvelope(status: number, body: string): void {
  expect(status, body).toBeLessThan(500);
  if (status >= 400) {
    const parsed: unknown = JSON.parse(body);
    expect(Value.Check(ErrorEnvelope, parsed), body).toBe(true);
  }
}

describe('never a 5xx, always an envelope', () => {
  it('random headers on every route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.constantFrom('GET', 'POST'),
        fc.record(
          {
            'api-key': fc.oneof(text, fc.constant(fx.demo.apiKey)),
            timestamp: text,
            signature: text,
            authorization: fc.oneof(text, fc.constant(`Bearer ${token}`)),
          },
          { requiredKeys: [] },
        ),
        query,
        async (path, method, headers, pairs) => {
          const res = await fx.app.inject({ method, url: path + toQuery(pairs), headers });
          expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
          checkEnvelope(res.statusCode, res.body);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random queries with valid credentials', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS.slice(0, 3)), query, async (path, pairs) => {
        const timestamp = unixSeconds(fx.now());
        const headers = {
          'api-key': fx.demo.apiKey,
          timestamp,
          signature: sign(fx.demo.apiSecret, timestamp),
          authorization: `Bearer ${token}`,
        };
        const res = await fx.app.inject({ method: 'GET', url: path + toQuery(pairs), headers });
        checkEnvelope(res.statusCode, res.body);
      }),
      { numRuns: 300 },
    );
  });

  it('random token request bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.json(), fc.string({ maxLength: 200 })),
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8'),
        async (body, contentType) => {
          const timestamp = unixSeconds(fx.now());
          const headers = {
            'api-key': fx.demo.apiKey,
            timestamp,
            signature: sign(fx.demo.apiSecret, timestamp, body),
            'content-type': contentType,
          };
          const res = await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers, payload: body });
          checkEnvelope(res.statusCode, res.body);
        },
      ),
      { numRuns: 200 },
    );
  });
});
