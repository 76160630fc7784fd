import { sign, signV2 } from '@hostpay/protocol';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { HostpayClient, type HostpayClientOptions, HostpayError, type FeePreview, type Wallet } from '../src/index.js';
import { API_KEY, API_SECRET, startFakeHostpay, type FakeHostpay } from './helpers/fake-hostpay.js';

let server: FakeHostpay;
beforeEach(async () => {
  server = await startFakeHostpay();
});
afterEach(() => server.close());

const client = (extra: Partial<HostpayClientOptions> = {}) =>
  new HostpayClient({ baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET, ...extra });

describe('HostpayClient methods against a signing-checking server', () => {
  it('listWallets sends the four headers and returns exact amounts as strings', async () => {
    const wallets = await client().listWallets();
    expectTypeOf(wallets).toEqualTypeOf<Wallet[]>();
    expectTypeOf(wallets[0]!.amount).toEqualTypeOf<string>();
    expect(wallets[0]).toMatchObject({
      id: 'w1',
      amount: '1234567890.123456789012345678',
      freezeAmount: '0.000000000000000001',
    });
    const call = server.requests.find((r) => r.path === '/api/v1/cp/wallets/');
    expect(call?.headers).toMatchObject({ 'api-key': API_KEY, authorization: 'Bearer tok-1' });
    expect(call?.headers.timestamp).toMatch(/^\d+$/);
    expect(call?.headers.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it('signs version 2 by default on the wallet list, the fee preview and the token request', async () => {
    const c = client();
    await c.listWallets({ merchantId: 'sub_1' });
    await c.previewFees({ amount: '1.5', currency: 'EUR' });
    const signed = server.requests.filter((r) => r.headers['api-key'] !== undefined);
    expect(signed.map((r) => r.path)).toEqual([
      '/api/v1/auth/token',
      '/api/v1/cp/wallets/',
      '/api/v1/cp/psp/hosted-pay/fees-preview',
    ]);
    for (const r of signed) {
      const { timestamp, signature } = r.headers as Record<string, string>;
      expect(r.headers['signature-version']).toBe('2');
      expect(signature).toBe(signV2(API_SECRET, timestamp!, r.method, r.target, r.body));
    }
  });

  it('signatureVersion: 1 still signs the deprecated version 1 when forced', async () => {
    await client({ signatureVersion: 1 }).listWallets();
    for (const r of server.requests) {
      const { timestamp, signature } = r.headers as Record<string, string>;
      expect(r.headers['signature-version']).toBeUndefined();
      expect(signature).toBe(sign(API_SECRET, timestamp!, r.body));
    }
  });

  it('listWallets passes merchantId only when given', async () => {
    await client().listWallets({ merchantId: 'sub_1' });
    expect(server.requests.at(-1)?.query.get('merchantId')).toBe('sub_1');
    await client().listWallets();
    expect(server.requests.at(-1)?.query.has('merchantId')).toBe(false);
  });

  it('previewFees round-trips an amount with 18 fractional digits exactly', async () => {
    const amount = '123456789012345.123456789012345678';
    const preview = await client().previewFees({ amount, currency: 'usdt' });
    expectTypeOf(preview).toEqualTypeOf<FeePreview>();
    expectTypeOf(preview.rate).toEqualTypeOf<string | null>();
    expect(server.requests.at(-1)?.query.get('amount')).toBe(amount);
    expect(preview).toMatchObject({ amount, convertedAmount: amount, value: '1.5', rate: null, currency: 'USDT' });
    expect(preview.tier).toEqual({ fromAmount: '0', toAmount: null });
  });

  it('previewFees accepts a number, a bigint and a decimal object', async () => {
    const c = client();
    await c.previewFees({ amount: 1e-7, currency: 'EUR' });
    expect(server.requests.at(-1)?.query.get('amount')).toBe('0.0000001');
    await c.previewFees({ amount: 10n ** 15n, currency: 'EUR' });
    expect(server.requests.at(-1)?.query.get('amount')).toBe('1000000000000000');
    await c.previewFees({ amount: { toFixed: () => '0.000000000000000001' }, currency: 'EUR' });
    expect(server.requests.at(-1)?.query.get('amount')).toBe('0.000000000000000001');
  });

  it("amounts: 'number' gives numbers, typed as such", async () => {
    const c = new HostpayClient({ baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET, amounts: 'number' });
    const [wallet] = await c.listWallets();
    expectTypeOf(wallet!.amount).toEqualTypeOf<number>();
    expect(wallet?.amount).toBe(1234567890.1234567);
  });

  it('issueToken signs the compact JSON body and returns the token', async () => {
    const token = await client().issueToken({ expiresIn: 600 });
    expect(token).toMatchObject({ tokenType: 'Bearer', expiresIn: 600, accessToken: 'tok-1' });
    const call = server.requests.at(-1);
    expect(call?.body).toBe('{"expiresIn":600}');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.headers.authorization).toBeUndefined();
  });

  it('issueToken without options sends {} and gets the server default', async () => {
    await expect(client().issueToken()).resolves.toMatchObject({ expiresIn: 3600 });
    expect(server.requests.at(-1)?.body).toBe('{}');
  });

  it('serverTime needs no authentication', async () => {
    const time = await client().serverTime();
    expect(Math.abs(time.unixTime - Date.now() / 1000)).toBeLessThan(5);
    expect(server.requests.at(-1)?.headers['api-key']).toBeUndefined();
  });

  it('uses a given bearerToken and never asks for one', async () => {
    const token = await client().issueToken();
    const before = server.tokenRequests();
    await client({ bearerToken: token.accessToken }).listWallets();
    expect(server.tokenRequests()).toBe(before);
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token.accessToken}`);
  });

  it('keeps a path prefix of baseUrl', async () => {
    const c = new HostpayClient({ baseUrl: `${server.url}/prefix/`, apiKey: API_KEY, apiSecret: API_SECRET });
    await expect(c.serverTime()).rejects.toBeInstanceOf(HostpayError);
    expect(server.requests.at(-1)?.path).toBe('/prefix/api/v1/time');
  });

  it('rejects bad options at construction', () => {
    expect(() => new HostpayClient({ baseUrl: '', apiKey: 'k', apiSecret: 's' })).toThrow(TypeError);
    expect(() => new HostpayClient({ baseUrl: 'http://x', apiKey: 'k', apiSecret: '' })).toThrow(/apiSecret/);
    expect(() => new HostpayClient({ baseUrl: 'http://x', apiKey: 'k', apiSecret: 's', maxRetries: -1 })).toThrow(
      /maxRetries/,
    );
    expect(() => new HostpayClient({ baseUrl: 'http://x', apiKey: 'k', apiSecret: 's', timeoutMs: 0 })).toThrow(
      /timeoutMs/,
    );
  });

  it('a wrong secret surfaces as INVALID_SIGNATURE with the request id', async () => {
    const error = await client({ apiSecret: 'wrong' })
      .listWallets()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostpayError);
    expect(error).toMatchObject({ status: 401, code: 'INVALID_SIGNATURE', requestId: 'req-invalid_signature' });
  });
});
