import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_V1_KEY_LABELS, OTHER_KEYS, signatureV1Notice } from '../src/auth/signature-deprecation.js';
import { loadConfig } from '../src/config.js';
import { fastPathAnswers } from '../src/http/fast-path.js';
import { createFixture, type HttpFixture, type TestKey } from './http-helpers/fixture.js';
import { issueToken, merchantHeaders, requestToken, signedHeaders } from './http-helpers/requests.js';

/**
 * Issue 42 item 6: requests still signed with version 1 are told so — `Deprecation` (RFC 9745),
 * `Sunset` (RFC 8594) and a `Link` to the migration guide — and counted per key in
 * hostpay_signature_v1_requests_total, with a bounded label set. Version-2 requests carry none.
 */
let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

const WALLETS = '/api/v1/cp/wallets';
const HTTP_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

async function v1Count(keyId: string): Promise<number> {
  const families = parsePrometheusTextFormat(await fx.app.hostpayMetrics.text());
  const family = families.find((f) => f.name === 'hostpay_signature_v1_requests_total');
  const sample = (family?.metrics ?? []).find(
    (m) => (m as { labels?: Record<string, string> }).labels?.key_id === keyId,
  ) as { value?: string } | undefined;
  return Number(sample?.value ?? 0);
}

describe('a request signed with version 1', () => {
  it('carries Deprecation (@unix seconds), Sunset (HTTP-date) and Link rel="deprecation" to the migration section', async () => {
    const res = await fx.app.inject({ method: 'GET', url: WALLETS, headers: await merchantHeaders(fx, fx.demo) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.parse('2026-11-23T00:00:00Z') / 1000}`);
    expect(res.headers.sunset).toMatch(HTTP_DATE);
    expect(Date.parse(String(res.headers.sunset))).toBe(Date.parse('2027-06-01T00:00:00Z'));
    expect(res.headers.link).toBe('</docs#migrating-from-signature-version-1>; rel="deprecation"; type="text/html"');
    // The token endpoint takes version 1 too: told the same.
    const token = await requestToken(fx, fx.demo);
    expect(token.statusCode).toBe(200);
    expect(token.headers.deprecation).toMatch(/^@\d+$/);
    expect(token.headers.sunset).toMatch(HTTP_DATE);
    expect(token.headers.link).toMatch(/rel="deprecation"/);
  });

  it('a version-2 request, and a refused version-1 one, carry none of them', async () => {
    const token = await issueToken(fx, fx.demo);
    const v2 = await fx.app.inject({
      method: 'GET',
      url: WALLETS,
      headers: {
        ...signedHeaders(fx, fx.demo, { target: { method: 'GET', url: WALLETS } }),
        authorization: `Bearer ${token}`,
      },
    });
    expect(v2.statusCode, v2.body).toBe(200);
    const wrong = await fx.app.inject({
      method: 'GET',
      url: WALLETS,
      headers: { ...(await merchantHeaders(fx, fx.demo, token)), signature: 'a'.repeat(64) },
    });
    expect(wrong.statusCode).toBe(401);
    for (const res of [v2, wrong])
      for (const h of ['deprecation', 'sunset', 'link']) expect(res.headers[h]).toBeUndefined();
  });

  it('the dates and the guide come from the configuration', async () => {
    const custom = await createFixture({
      signatureV1DeprecatedAt: '2027-01-01T00:00:00Z',
      signatureV1SunsetAt: '2027-12-31T12:00:00Z',
      signatureV1DocsUrl: 'https://docs.example.com/api#migrating-from-signature-version-1',
    });
    try {
      const res = await requestToken(custom, custom.demo);
      expect(res.headers.deprecation).toBe('@1798761600');
      expect(res.headers.sunset).toBe('Fri, 31 Dec 2027 12:00:00 GMT');
      expect(res.headers.link).toBe(
        '<https://docs.example.com/api#migrating-from-signature-version-1>; rel="deprecation"; type="text/html"',
      );
    } finally {
      await custom.close();
    }
    expect(() =>
      loadConfig({
        HOSTPAY_SIGNATURE_V1_DEPRECATED_AT: '2027-01-01T00:00:00Z',
        HOSTPAY_SIGNATURE_V1_SUNSET_AT: '2026-01-01T00:00:00Z',
      }),
    ).toThrow(/HOSTPAY_SIGNATURE_V1_SUNSET_AT/);
    expect(() => loadConfig({ HOSTPAY_SIGNATURE_V1_SUNSET_AT: 'next June' })).toThrow(/HOSTPAY_SIGNATURE_V1_SUNSET_AT/);
  });
});

describe('hostpay_signature_v1_requests_total', () => {
  it('counts accepted version-1 requests per key, on Fastify and on the fast path; not v2, not refused ones', async () => {
    const a = await fx.createKey(fx.demo.merchantId);
    const b = await fx.createKey(fx.demo.merchantId);
    const token = await issueToken(fx, a); // 1 for a
    const headers = await merchantHeaders(fx, a, token);
    await fx.app.inject({ method: 'GET', url: WALLETS, headers }); // 2
    await fx.app.inject({ method: 'GET', url: WALLETS, headers: { ...headers, signature: 'b'.repeat(64) } }); // refused
    await fx.app.inject({
      method: 'GET',
      url: WALLETS,
      headers: {
        ...signedHeaders(fx, a, { target: { method: 'GET', url: WALLETS } }),
        authorization: `Bearer ${token}`,
      },
    }); // v2
    await issueToken(fx, b);
    // Over a socket, the repeats are answered by the fast path, before Fastify.
    await fx.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = fx.app.server.address() as AddressInfo;
    const before = fastPathAnswers(fx.app);
    for (let i = 0; i < 3; i++) {
      const res = await plainGet(port, WALLETS, headers);
      expect(res.status).toBe(200);
      expect(res.deprecation).toMatch(/^@\d+$/);
    }
    expect(fastPathAnswers(fx.app) - before).toBe(3);
    expect(await v1Count(a.apiKey)).toBe(5);
    expect(await v1Count(b.apiKey)).toBe(1);
    expect(await v1Count('hp_unknown')).toBe(0);
  });

  it(`labels at most ${MAX_V1_KEY_LABELS} key ids; later keys are counted as "${OTHER_KEYS}"`, () => {
    const seen = new Map<string, number>();
    const notice = signatureV1Notice(fx.config, {
      inc: ({ key_id }) => seen.set(key_id, (seen.get(key_id) ?? 0) + 1),
    });
    const keys: TestKey['apiKey'][] = Array.from({ length: MAX_V1_KEY_LABELS + 50 }, (_, i) => `hp_k${i}`);
    for (const k of [...keys, ...keys]) notice.count(k);
    expect(seen.size).toBe(MAX_V1_KEY_LABELS + 1);
    expect(seen.get('hp_k0')).toBe(2);
    expect(seen.get(`hp_k${MAX_V1_KEY_LABELS - 1}`)).toBe(2);
    expect(seen.has(`hp_k${MAX_V1_KEY_LABELS}`)).toBe(false);
    expect(seen.get(OTHER_KEYS)).toBe(100);
  });
});

/** A GET as a plain HTTP client sends it (no Accept-Encoding, so the fast path may answer it). */
function plainGet(port: number, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; deprecation: string | undefined }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, deprecation: res.headers.deprecation as string }));
    });
    req.on('error', reject);
    req.end();
  });
}
