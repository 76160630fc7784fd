import { afterEach, describe, expect, it } from 'vitest';
import {
  defaultRetryDelay,
  HostpayClient,
  type HostpayClientOptions,
  HostpayError,
  type RetryInfo,
} from '../src/index.js';
import { API_KEY, API_SECRET, startFakeHostpay, type FakeHostpay } from './helpers/fake-hostpay.js';
import { errorReply, type Recorded, type Reply } from './helpers/http-server.js';

let server: FakeHostpay | undefined;
afterEach(() => server?.close());

/** A fake whose time and wallet endpoints answer with `replies` in turn, then normally. */
async function timeServer(replies: Reply[]) {
  let n = 0;
  server = await startFakeHostpay({
    intercept: (req: Recorded) =>
      req.path === '/api/v1/time' || req.path === '/api/v1/cp/wallets/' ? replies[n++] : undefined,
  });
  return server;
}

const noWait = () => 0;
const client = (url: string, extra: Partial<HostpayClientOptions> = {}) =>
  new HostpayClient({ baseUrl: url, apiKey: API_KEY, apiSecret: API_SECRET, retryDelay: noWait, ...extra });

describe('retries', () => {
  it('a server that fails twice (503, 502) then succeeds: the call succeeds on the third attempt', async () => {
    const s = await timeServer([errorReply(503, 'UNAVAILABLE'), { status: 502, body: '<html>bad gateway</html>' }]);
    await expect(client(s.url).serverTime()).resolves.toMatchObject({ toleranceSeconds: 60 });
    expect(s.requests).toHaveLength(3);
  });

  it('each attempt carries a fresh timestamp and signature', async () => {
    const s = await timeServer([errorReply(504, 'UNAVAILABLE'), errorReply(503, 'UNAVAILABLE')]);
    let clock = Date.now();
    await client(s.url, { now: () => (clock += 1000), bearerToken: 'ignored' })
      .listWallets()
      .catch(() => undefined);
    const wallets = s.requests.filter((r) => r.path === '/api/v1/cp/wallets/');
    expect(wallets).toHaveLength(3);
    expect(new Set(wallets.map((r) => r.headers.timestamp)).size).toBe(3);
    expect(new Set(wallets.map((r) => r.headers.signature)).size).toBe(3);
  });

  it('429 with Retry-After: the default delay waits that long, then succeeds', async () => {
    const s = await timeServer([errorReply(429, 'RATE_LIMITED', undefined, { 'retry-after': '1' })]);
    const started = Date.now();
    await expect(client(s.url, { retryDelay: defaultRetryDelay }).serverTime()).resolves.toBeDefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(s.requests).toHaveLength(2);
  });

  it('passes Retry-After (seconds or HTTP date) to the delay function', async () => {
    const later = new Date(Date.now() + 30_000).toUTCString();
    const s = await timeServer([
      errorReply(429, 'RATE_LIMITED', undefined, { 'retry-after': '7' }),
      errorReply(503, 'UNAVAILABLE', undefined, { 'retry-after': later }),
    ]);
    const seen: RetryInfo[] = [];
    await client(s.url, { retryDelay: (info) => (seen.push(info), 0) }).serverTime();
    expect(seen.map((i) => i.attempt)).toEqual([0, 1]);
    expect(seen[0]?.retryAfterMs).toBe(7000);
    expect(seen[0]?.error.code).toBe('RATE_LIMITED');
    expect(seen[1]?.retryAfterMs).toBeGreaterThan(25_000);
  });

  it('gives up at once when Retry-After is beyond the time budget', async () => {
    const s = await timeServer([errorReply(429, 'RATE_LIMITED', undefined, { 'retry-after': '3600' })]);
    const started = Date.now();
    const error = await client(s.url, { retryDelay: defaultRetryDelay })
      .serverTime()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfter: 3600 });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('retries network errors', async () => {
    let n = 0;
    server = await startFakeHostpay({ intercept: () => (n++ < 2 ? { status: 0 } : undefined) });
    await expect(client(server.url).serverTime()).resolves.toBeDefined();
    expect(n).toBe(3);
  });

  it('after maxRetries, throws the last error', async () => {
    const s = await timeServer(Array.from({ length: 5 }, () => errorReply(503, 'UNAVAILABLE')));
    await expect(client(s.url).serverTime()).rejects.toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect(s.requests).toHaveLength(3);
    await expect(client(s.url, { maxRetries: 0 }).serverTime()).rejects.toBeInstanceOf(HostpayError);
    expect(s.requests).toHaveLength(4);
  });

  it('a proxy 502 without a hostpay body ends as HTTP_ERROR after the retries', async () => {
    const s = await timeServer(Array.from({ length: 3 }, () => ({ status: 502, body: '<html>bad gateway</html>' })));
    await expect(client(s.url).serverTime()).rejects.toMatchObject({ code: 'HTTP_ERROR', status: 502 });
  });

  for (const [status, code] of [
    [400, 'INVALID_QUERY'],
    [401, 'INVALID_SIGNATURE'],
    [403, 'KEY_REVOKED'],
    [404, 'NOT_FOUND'],
    [500, 'INTERNAL'],
  ] as const) {
    it(`never retries ${status} ${code}`, async () => {
      const s = await timeServer([errorReply(status, code)]);
      await expect(client(s.url).serverTime()).rejects.toMatchObject({ status, code });
      expect(s.requests).toHaveLength(1);
    });
  }
});

describe('defaultRetryDelay', () => {
  it('doubles from 0.5 s up to 8 s, with 50-100 % jitter', () => {
    const error = new HostpayError({ status: 503, code: 'UNAVAILABLE', message: 'x' });
    for (let attempt = 0; attempt < 8; attempt++) {
      const base = Math.min(8000, 500 * 2 ** attempt);
      for (let i = 0; i < 50; i++) {
        const wait = defaultRetryDelay({ attempt, retryAfterMs: undefined, error });
        expect(wait).toBeGreaterThanOrEqual(base / 2);
        expect(wait).toBeLessThanOrEqual(base);
      }
    }
  });
  it('takes Retry-After as it is', () => {
    const error = new HostpayError({ status: 429, code: 'RATE_LIMITED', message: 'x' });
    expect(defaultRetryDelay({ attempt: 3, retryAfterMs: 2000, error })).toBe(2000);
  });
});
