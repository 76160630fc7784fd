import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayClient, type HostpayClientOptions } from '../src/index.js';
import { startRealServer, type RealServer } from './helpers/real-server.js';

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer();
});
afterAll(() => server.close());

const client = (extra: Partial<HostpayClientOptions> = {}) =>
  new HostpayClient({ baseUrl: server.url, apiKey: server.demo.apiKey, apiSecret: server.demo.apiSecret, ...extra });

/** A fetch that counts the requests per path. */
function countingFetch() {
  const counts = new Map<string, number>();
  const fetcher = (input: string, init: RequestInit) => {
    const path = new URL(input).pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    return fetch(input, init);
  };
  return { fetcher, count: (path: string) => counts.get(path) ?? 0 };
}

describe('against the real hostpay server (embedded SQLite, real socket)', () => {
  it('serverTime', async () => {
    const time = await client().serverTime();
    expect(Math.abs(time.unixTime - Date.now() / 1000)).toBeLessThan(5);
    expect(time.toleranceSeconds).toBe(60);
    expect(Math.abs(Date.parse(time.iso) - time.unixTime * 1000)).toBeLessThan(1000);
  });

  it('issueToken', async () => {
    const token = await client().issueToken({ expiresIn: 600 });
    expect(token).toMatchObject({ tokenType: 'Bearer', expiresIn: 600 });
    expect(token.accessToken.split('.')).toHaveLength(3);
    expect(Date.parse(token.expiresAt) - Date.now()).toBeGreaterThan(590_000);
    const narrowed = await client().issueToken({ scope: ['wallets:read'] });
    expect(narrowed.scope).toEqual(['wallets:read']);
  });

  it('listWallets: the demo wallets with exact balances', async () => {
    const wallets = await client().listWallets();
    expect(wallets).toHaveLength(5);
    const eth = wallets.find((w) => w.asset === 'ETH');
    expect(eth).toMatchObject({ amount: '3.141592653589793238', freezeAmount: '0.5', isCrypto: true });
    const usdt = wallets.find((w) => w.asset === 'USDT' && w.chain.symbol === 'TRON');
    expect(usdt).toMatchObject({ amount: '1250.75', freezeAmount: '100.25' });
    for (const w of wallets) expect(typeof w.amount).toBe('string');
  });

  it('previewFees: a percentage schedule, and a converted one with a rate', async () => {
    const usdt = await client().previewFees({ amount: 100, currency: 'usdt' });
    expect(usdt).toMatchObject({
      isPercentage: true,
      value: '1.5',
      currency: 'USDT',
      originalCurrency: 'USDT',
      amount: '100',
    });
    const eur = await client().previewFees({ amount: '250.5', currency: 'EUR' });
    expect(eur).toMatchObject({ currency: 'USDT', originalCurrency: 'EUR', rate: '1.0842' });
    expect(typeof eur.fee).toBe('string');
  });

  it('an amount with 18 fractional digits round-trips exactly', async () => {
    const amount = '123456789012345.123456789012345678';
    const preview = await client().previewFees({ amount, currency: 'ETH' });
    expect(preview.amount).toBe(amount);
    expect(preview.convertedAmount).toBe(amount); // ETH has 18 decimals: nothing to round
    expect(preview.serviceFee).toBe('1234567890123.451234567890123457'); // 1 %, 18 digits kept
    expect(preview.fee).toBe('1234567890123.453334567890123457'); // + onChainFee 0.0021
    const tiny = await client().previewFees({ amount: { toFixed: () => '0.000000000000000001' }, currency: 'ETH' });
    expect(tiny.amount).toBe('0.000000000000000001');
  });

  it("amounts: 'number' gives numbers", async () => {
    const { apiKey, apiSecret } = server.demo;
    const wallets = await new HostpayClient({
      baseUrl: server.url,
      apiKey,
      apiSecret,
      amounts: 'number',
    }).listWallets();
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: the demo balance, not Math.PI
    expect(wallets.find((w) => w.asset === 'ETH')?.amount).toBe(3.141592653589793);
  });

  it('50 concurrent calls make exactly one token request', async () => {
    const { fetcher, count } = countingFetch();
    const c = client({ fetch: fetcher });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2 ? c.listWallets() : c.previewFees({ amount: i + 1, currency: 'BTC' }),
      ),
    );
    expect(results).toHaveLength(50);
    expect(count('/api/v1/auth/token')).toBe(1);
  });

  it('a client clock 10 minutes off still succeeds, and keeps the offset', async () => {
    for (const skew of [-600_000, 600_000]) {
      const { fetcher, count } = countingFetch();
      const c = client({ fetch: fetcher, now: () => Date.now() + skew });
      await expect(c.listWallets()).resolves.toHaveLength(5);
      expect(Math.abs(c.clockOffsetMs + skew)).toBeLessThan(2000);
      await c.previewFees({ amount: '1', currency: 'USDT' });
      expect(count('/api/v1/auth/token')).toBe(2); // the refused first one, then the corrected one
    }
  });

  it('a given bearer token is used as is', async () => {
    const { accessToken } = await client().issueToken();
    const { fetcher, count } = countingFetch();
    await expect(client({ bearerToken: accessToken, fetch: fetcher }).listWallets()).resolves.toHaveLength(5);
    expect(count('/api/v1/auth/token')).toBe(0);
  });

  it('a token the server says has expired is renewed once, and the call succeeds', async () => {
    const { fetcher, count } = countingFetch();
    const c = client({ fetch: fetcher, tokenExpiresIn: 60 });
    await c.listWallets();
    server.shiftClock(120_000); // the server's clock jumps: the token expired, timestamps are stale
    try {
      await expect(c.listWallets()).resolves.toHaveLength(5);
      expect(count('/api/v1/auth/token')).toBe(2);
      expect(Math.abs(c.clockOffsetMs - 120_000)).toBeLessThan(2000);
    } finally {
      server.shiftClock(0);
    }
  });
});

describe('signature version 2 (real server)', () => {
  const ctx = { operator: 'client-e2e' };
  /**
   * A fetch that records, per signed request, its path, signature-version header and whether the
   * answer carried the server's Deprecation header (sent to every version-1 request).
   */
  function versionFetch() {
    const versions: string[] = [];
    const seen: { path: string; version: string; deprecation: string | null }[] = [];
    const fetcher = async (input: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      const res = await fetch(input, init);
      if (headers['api-key'] !== undefined) {
        const version = headers['signature-version'] ?? '1';
        versions.push(version);
        seen.push({ path: new URL(input).pathname, version, deprecation: res.headers.get('deprecation') });
      }
      return res;
    };
    return { fetcher, versions, seen };
  }

  it('signs version 2 when asked, with a query in any order', async () => {
    const { fetcher, versions } = versionFetch();
    const c = client({ signatureVersion: 2, fetch: fetcher });
    expect((await c.previewFees({ amount: '100', currency: 'USDT' })).currency).toBeDefined();
    expect(versions).toEqual(['2', '2']);
  });

  it('signs version 2 by default on the three routes that still take version 1: no Deprecation header', async () => {
    const { fetcher, seen } = versionFetch();
    const c = client({ fetch: fetcher });
    await c.listWallets();
    await c.previewFees({ amount: '100', currency: 'USDT' });
    await c.issueToken({ expiresIn: 600 });
    expect(seen.map((s) => s.path)).toEqual([
      '/api/v1/auth/token',
      '/api/v1/cp/wallets/',
      '/api/v1/cp/psp/hosted-pay/fees-preview',
      '/api/v1/auth/token',
    ]);
    expect(seen.every((s) => s.version === '2' && s.deprecation === null)).toBe(true);
  });

  it('by default a key that requires version 2 is served at the first attempt, nothing refused', async () => {
    const key = await server.services.admin.createApiKey(server.demo.merchantId, { requireSignatureV2: true }, ctx);
    const { fetcher, versions } = versionFetch();
    const c = client({ apiKey: key.apiKey, apiSecret: key.apiSecret, fetch: fetcher });
    await expect(c.listWallets()).resolves.toHaveLength(5);
    expect(versions).toEqual(['2', '2']);
  });

  it('signatureVersion: 1 still forces the deprecated version, and the server says so', async () => {
    const { fetcher, seen } = versionFetch();
    const c = client({ signatureVersion: 1, fetch: fetcher });
    await c.listWallets();
    expect(seen.map((s) => s.version)).toEqual(['1', '1']);
    expect(seen.every((s) => s.deprecation !== null)).toBe(true);
  });
});
