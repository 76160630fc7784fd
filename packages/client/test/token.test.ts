import { afterEach, describe, expect, it } from 'vitest';
import { HostpayClient, type HostpayClientOptions } from '../src/index.js';
import { API_KEY, API_SECRET, startFakeHostpay, type FakeHostpay, type FakeOptions } from './helpers/fake-hostpay.js';

let server: FakeHostpay | undefined;
afterEach(() => server?.close());

let clock = Date.now();
const now = () => clock;

async function setup(options: FakeOptions = {}, extra: Partial<HostpayClientOptions> = {}) {
  clock = Date.now();
  server = await startFakeHostpay({ serverNow: now, ...options });
  const client = new HostpayClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    now,
    retryDelay: () => 0,
    ...extra,
  });
  return { server, client };
}

const bearerOf = (s: FakeHostpay) =>
  s.requests.filter((r) => r.path === '/api/v1/cp/wallets/').map((r) => r.headers.authorization);

describe('bearer token obtained by the client', () => {
  it('50 concurrent calls make exactly one token request', async () => {
    const { server: s, client } = await setup({ tokenDelayMs: 100 });
    const results = await Promise.all(Array.from({ length: 50 }, () => client.listWallets()));
    expect(results).toHaveLength(50);
    expect(s.tokenRequests()).toBe(1);
    expect(new Set(bearerOf(s))).toEqual(new Set(['Bearer tok-1']));
  });

  it('asks for tokenExpiresIn and renews before expiry, once for 50 concurrent calls', async () => {
    const { server: s, client } = await setup({ tokenDelayMs: 50 }, { tokenExpiresIn: 300 });
    await client.listWallets();
    expect(s.requests.find((r) => r.path === '/api/v1/auth/token')?.body).toBe('{"expiresIn":300}');
    clock += 200_000; // 100 s left: still used
    await client.listWallets();
    expect(s.tokenRequests()).toBe(1);
    clock += 45_000; // 55 s left, under the one-minute margin: renewed
    await Promise.all(Array.from({ length: 50 }, () => client.listWallets()));
    expect(s.tokenRequests()).toBe(2);
    expect(bearerOf(s).at(-1)).toBe('Bearer tok-2');
  });

  it('a short-lived token is renewed a fifth of its lifetime early', async () => {
    const { server: s, client } = await setup({}, { tokenExpiresIn: 60 });
    await client.listWallets();
    clock += 47_000;
    await client.listWallets();
    expect(s.tokenRequests()).toBe(1);
    clock += 2_000; // 49 s: past 60 - 12
    await client.listWallets();
    expect(s.tokenRequests()).toBe(2);
  });

  it('when the server says TOKEN_EXPIRED, gets a new token and retries once', async () => {
    const { server: s, client } = await setup();
    await client.listWallets();
    s.revokeTokens();
    await expect(client.listWallets()).resolves.toHaveLength(1);
    expect(s.tokenRequests()).toBe(2);
    expect(bearerOf(s).slice(-2)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
  });

  it('a failed token request fails its waiters, and the next call tries again', async () => {
    let deny = true;
    const { server: s, client } = await setup({
      intercept: (req) =>
        deny && req.path === '/api/v1/auth/token'
          ? {
              status: 403,
              body: {
                status: false,
                isSuccess: false,
                message: 'revoked',
                result: null,
                error: { code: 'KEY_REVOKED', requestId: 'r1' },
              },
            }
          : undefined,
    });
    const calls = await Promise.allSettled(Array.from({ length: 5 }, () => client.listWallets()));
    expect(calls.every((c) => c.status === 'rejected' && (c.reason as { code: string }).code === 'KEY_REVOKED')).toBe(
      true,
    );
    expect(s.requests.filter((r) => r.path === '/api/v1/auth/token')).toHaveLength(1);
    deny = false;
    await expect(client.listWallets()).resolves.toHaveLength(1);
  });
});
