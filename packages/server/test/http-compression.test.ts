import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { sign } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBigMerchant } from '../../../bench/big-merchant.js';
import { CompressedMemo, COMPRESSION_THRESHOLD_BYTES } from '../src/http/compression.js';
import { createFixture, type HttpFixture, type TestKey } from './http-helpers/fixture.js';
import { merchantHeaders } from './http-helpers/requests.js';

/** Large answers compressed on request, byte-exact after decompression; small ones untouched. */
let fx: HttpFixture;
let big: TestKey;
let bigHeaders: Record<string, string>;
let demoHeaders: Record<string, string>;
beforeAll(async () => {
  fx = await createFixture();
  big = await seedBigMerchant(fx.services, 1000);
  bigHeaders = await merchantHeaders(fx, big);
  demoHeaders = await merchantHeaders(fx, fx.demo);
});
afterAll(() => fx.close());

const WALLETS = '/api/v1/cp/wallets';
const get = (url: string, headers: Record<string, string>, acceptEncoding?: string) =>
  fx.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? headers : { ...headers, 'accept-encoding': acceptEncoding },
  });
const varies = (value: unknown) =>
  String(value ?? '')
    .split(/,\s*/)
    .map((v) => v.toLowerCase())
    .includes('accept-encoding');

describe('the 1,000-wallet list', () => {
  it('is sent as it is without accept-encoding, exact decimals included', async () => {
    const res = await get(WALLETS, bigHeaders);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(await fx.services.merchant.walletListBody(big.merchantId));
    expect(res.rawPayload.length).toBeGreaterThan(500_000);
    expect(res.body).toMatch(/"amount":\d+\.\d{18},/);
  });

  for (const [encoding, decompress] of [
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const) {
    it(`is ${encoding}-compressed on request and decompresses to exactly the uncompressed bytes`, async () => {
      const plain = (await get(WALLETS, bigHeaders)).rawPayload;
      const res = await get(WALLETS, bigHeaders, encoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(varies(res.headers.vary), String(res.headers.vary)).toBe(true);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.rawPayload.length).toBeLessThan(plain.length / 5);
      expect(decompress(res.rawPayload).equals(plain)).toBe(true);
    });
  }

  it('prefers brotli when both are acceptable, and honours q=0 and identity', async () => {
    expect((await get(WALLETS, bigHeaders, 'gzip, deflate, br')).headers['content-encoding']).toBe('br');
    expect((await get(WALLETS, bigHeaders, 'br;q=0, gzip')).headers['content-encoding']).toBe('gzip');
    expect((await get(WALLETS, bigHeaders, 'identity')).headers['content-encoding']).toBeUndefined();
    expect((await get(WALLETS, bigHeaders, 'deflate')).headers['content-encoding']).toBeUndefined();
  });
});

describe('the compressed-answer memo', () => {
  it('serves the same bytes again, and never a stale answer after a write', async () => {
    const first = await get(WALLETS, bigHeaders, 'br');
    const again = await get(WALLETS, bigHeaders, 'br');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const [wallet] = (await fx.services.admin.listWallets({ merchantId: big.merchantId, limit: 1 })).items;
    await fx.services.admin.post(
      { walletId: wallet!.id, kind: 'credit', amount: '0.000000000000000007', idempotencyKey: 'memo-test' },
      { operator: 'test' },
    );
    const plain = (await get(WALLETS, bigHeaders)).rawPayload;
    const after = await get(WALLETS, bigHeaders, 'br');
    expect(after.rawPayload.equals(first.rawPayload)).toBe(false);
    expect(brotliDecompressSync(after.rawPayload).equals(plain)).toBe(true);
  });

  it('holds at most its byte budget, dropping the least recently used answers', async () => {
    const memo = new CompressedMemo(10_000);
    const texts = Array.from({ length: 6 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(3000) }));
    for (const t of texts) {
      expect(gunzipSync(await memo.get(t, 'gzip')).toString()).toBe(t);
      expect(memo.size).toBeLessThanOrEqual(10_000);
    }
    const kept = await memo.get(texts[5]!, 'gzip');
    expect(await memo.get(texts[5]!, 'gzip')).toBe(kept); // a hit: the same buffer
  });
});

describe('small answers', () => {
  it('under the threshold go out uncompressed even when the client accepts gzip and br', async () => {
    const cases = [
      await get('/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT', demoHeaders, 'gzip, br'),
      await get('/api/v1/time', {}, 'gzip, br'),
      await get(WALLETS, { ...demoHeaders, signature: '0'.repeat(64) }, 'gzip, br'), // an error
    ];
    for (const res of cases) {
      expect(res.rawPayload.length, res.body).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
      expect(res.headers['content-encoding'], res.body).toBeUndefined();
      expect(JSON.parse(res.body)).toHaveProperty('isSuccess');
    }
  });

  it('the 5-wallet list (about 2.5 KB) is compressed like any answer over 1 KB, still byte-exact', async () => {
    const plain = (await get(WALLETS, demoHeaders)).rawPayload;
    expect(plain.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    const res = await get(WALLETS, demoHeaders, 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).equals(plain)).toBe(true);
  });
});

describe('request bodies', () => {
  it('are not decompressed: a gzip-encoded token request is refused, not inflated and accepted', async () => {
    const body = '{"expiresIn":120}';
    const headers: Record<string, string> = {
      ...(await merchantHeaders(fx, fx.demo)),
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    };
    headers.signature = sign(fx.demo.apiSecret, headers.timestamp!, body);
    const res = await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers, payload: gzipSync(body) });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('the API documentation files', () => {
  it("are compressed by the plugin (Swagger UI's script), while JSON answers go through the memo only", async () => {
    const res = await fx.app.inject({
      method: 'GET',
      url: '/docs/static/swagger-ui-bundle.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).length).toBeGreaterThan(res.rawPayload.length * 2);
  });
});
