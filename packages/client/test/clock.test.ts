import { afterEach, describe, expect, it } from 'vitest';
import { HostpayClient } from '../src/index.js';
import { API_KEY, API_SECRET, startFakeHostpay, type FakeHostpay, type FakeOptions } from './helpers/fake-hostpay.js';
import { errorReply } from './helpers/http-server.js';

let server: FakeHostpay | undefined;
afterEach(() => server?.close());

const TEN_MINUTES = 10 * 60_000;

async function setup(skewMs: number, options: FakeOptions = {}, bearerToken?: string) {
  server = await startFakeHostpay(options);
  const client = new HostpayClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    now: () => Date.now() + skewMs,
    retryDelay: () => 0,
    ...(bearerToken === undefined ? {} : { bearerToken }),
  });
  return { server, client };
}

const outOfWindow = (s: FakeHostpay) =>
  s.requests.filter((r) => r.path !== '/api/v1/time' && Math.abs(Number(r.headers.timestamp) - Date.now() / 1000) > 60)
    .length;

describe('clock skew', () => {
  it('a client clock 10 minutes slow still succeeds, learning the offset from the error', async () => {
    const { server: s, client } = await setup(-TEN_MINUTES);
    await expect(client.listWallets()).resolves.toHaveLength(1);
    expect(Math.abs(client.clockOffsetMs - TEN_MINUTES)).toBeLessThan(2000);
    expect(outOfWindow(s)).toBe(1); // only the first token request
    expect(s.requests.some((r) => r.path === '/api/v1/time')).toBe(false);
  });

  it('later calls use the offset: no further rejected attempt', async () => {
    const { server: s, client } = await setup(-TEN_MINUTES);
    await client.listWallets();
    const count = s.requests.length;
    await client.previewFees({ amount: '10', currency: 'EUR' });
    await client.issueToken();
    expect(s.requests.length).toBe(count + 2);
    expect(outOfWindow(s)).toBe(1);
  });

  it('a clock 10 minutes fast, error without serverTime: asks GET /api/v1/time', async () => {
    const { server: s, client } = await setup(TEN_MINUTES, { omitServerTime: true });
    await expect(client.previewFees({ amount: '5', currency: 'usdt' })).resolves.toMatchObject({ amount: '5' });
    expect(Math.abs(client.clockOffsetMs + TEN_MINUTES)).toBeLessThan(2000);
    expect(s.requests.filter((r) => r.path === '/api/v1/time')).toHaveLength(1);
  });

  it('corrects a merchant call made with a given bearer token', async () => {
    const { client: issuer, server: s } = await setup(0);
    const { accessToken } = await issuer.issueToken();
    const skewed = new HostpayClient({
      baseUrl: s.url,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      bearerToken: accessToken,
      now: () => Date.now() - TEN_MINUTES,
    });
    await expect(skewed.listWallets()).resolves.toHaveLength(1);
  });

  it('corrects once per call: a server that keeps refusing ends in TIMESTAMP_OUT_OF_WINDOW', async () => {
    const refuse = errorReply(401, 'TIMESTAMP_OUT_OF_WINDOW', { serverTime: 1 });
    const { server: s, client } = await setup(0, {
      intercept: (req) => (req.path === '/api/v1/auth/token' ? refuse : undefined),
    });
    await expect(client.issueToken()).rejects.toMatchObject({
      code: 'TIMESTAMP_OUT_OF_WINDOW',
      status: 401,
      details: { serverTime: 1 },
    });
    expect(s.requests).toHaveLength(2);
  });
});
