import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS, SCOPES, type ErrorCode } from '@hostpay/protocol';
import type { KeySettings } from '@hostpay/server';
import { HostpayClient, HostpayError, type HostpayClientOptions } from '../src/index.js';
import { startRealServer, type RealServer } from './helpers/real-server.js';

let server: RealServer;
let failing: RealServer;
let other: { id: string };
beforeAll(async () => {
  server = await startRealServer();
  failing = await startRealServer({
    wrap: (s) => ({
      ...s,
      walletListBody: () => Promise.reject(new Error('boom: no detail of this may reach the client')),
      feePreviewBody: () => Promise.reject(Object.assign(new Error('store down'), { statusCode: 503 })),
    }),
  });
  other = await server.services.admin.createMerchant('Other Shop', ctx);
  await server.services.admin.setFee({ currency: 'USDC', isPercentage: true, value: '1', feeCurrency: 'EUR' }, ctx);
});
afterAll(async () => {
  await server.close();
  await failing.close();
});

const ctx = { operator: 'client-e2e' };
const client = (extra: Partial<HostpayClientOptions> = {}) =>
  new HostpayClient({
    baseUrl: server.url,
    apiKey: server.demo.apiKey,
    apiSecret: server.demo.apiSecret,
    retryDelay: () => 0,
    ...extra,
  });

async function keyClient(
  settings: KeySettings,
  merchantId = server.demo.merchantId,
  extra: Partial<HostpayClientOptions> = {},
) {
  const key = await server.services.admin.createApiKey(merchantId, settings, ctx);
  return client({ apiKey: key.apiKey, apiSecret: key.apiSecret, ...extra });
}

const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** An invoice line (keys created without a scope list may write invoices). */
const line = { description: 'Work', quantity: 1, unitAmount: '10' };

/**
 * A merchant of its own with a USDT wallet on TRON holding 10, a key with every scope (payouts:write
 * included), its payout settings as given, and one destination (active when the cooling-off is 0).
 */
async function payoutWorld(settings: { payoutCoolingOffHours?: number; payoutDailyLimit?: Record<string, string> }) {
  const { admin } = server.services;
  const merchant = await admin.createMerchant('Payout Shop', ctx);
  const walletId = (await admin.createWallet({ merchantId: merchant.id, asset: 'USDT', chain: 'TRON' }, ctx)).id;
  await admin.post({ walletId, kind: 'credit', amount: '10' }, ctx);
  await admin.updateMerchant(merchant.id, settings, ctx);
  const c = await keyClient({ scopes: [...SCOPES] }, merchant.id);
  const destinationId = (await c.payoutDestinations.create({ chain: 'TRON', address: TRON_ADDRESS })).id;
  return { c, walletId, destinationId };
}

/** A fetch that alters each request before it goes out, to provoke what a correct client never sends. */
const tamper =
  // biome-ignore lint/suspicious/noConfusingVoidType: a change may return nothing (it edits the headers in place)
    (change: (headers: Record<string, string>, init: RequestInit) => RequestInit | void) =>
    (input: string, init: RequestInit) => {
      const headers = { ...(init.headers as Record<string, string>) };
      return fetch(input, change(headers, init) ?? { ...init, headers });
    };

type Case = [ErrorCode, () => Promise<unknown>];
const cases: Case[] = [
  ['INVALID_AMOUNT', () => client().previewFees({ amount: '-1', currency: 'USDT' })],
  ['INVALID_CURRENCY', () => client().previewFees({ amount: '1', currency: 'U$' })],
  ['INVALID_QUERY', () => client().listWallets({ merchantId: 'not valid!' })],
  ['INVALID_BODY', () => client().issueToken({ expiresIn: 5 })],
  [
    'INVALID_ADDRESS',
    async () =>
      (await keyClient({ scopes: [...SCOPES] })).payoutDestinations.create({ chain: 'TRON', address: '0xnot-tron' }),
  ],
  [
    'INVALID_EMAIL',
    async () =>
      (await keyClient({ scopes: [...SCOPES] })).checkouts.create({
        amount: '5',
        currency: 'USDT',
        customerEmail: 'Payer <payer@example.com>',
      }),
  ],
  [
    'DESTINATION_NOT_ACTIVE',
    async () => {
      const { c, walletId, destinationId } = await payoutWorld({}); // the default 24 h cooling-off
      return c.payouts.create({ walletId, amount: '1', destinationId });
    },
  ],
  [
    'INSUFFICIENT_FUNDS',
    async () => {
      const { c, walletId, destinationId } = await payoutWorld({ payoutCoolingOffHours: 0 });
      return c.payouts.create({ walletId, amount: '10.000001', destinationId });
    },
  ],
  [
    'PAYOUT_LIMIT',
    async () => {
      const { c, walletId, destinationId } = await payoutWorld({
        payoutCoolingOffHours: 0,
        payoutDailyLimit: { USDT: '1' },
      });
      return c.payouts.create({ walletId, amount: '2', destinationId });
    },
  ],
  [
    'PAYOUT_STATE_CONFLICT',
    async () => {
      const { c, walletId, destinationId } = await payoutWorld({ payoutCoolingOffHours: 0 });
      const p = await c.payouts.cancel((await c.payouts.create({ walletId, amount: '1', destinationId })).id);
      return c.payouts.cancel(p.id);
    },
  ],
  [
    'WALLET_INACTIVE',
    async () => {
      const { c, walletId, destinationId } = await payoutWorld({ payoutCoolingOffHours: 0 });
      await server.services.admin.setWalletActive(walletId, false, ctx);
      return c.payouts.create({ walletId, amount: '1', destinationId });
    },
  ],
  [
    'SIGNATURE_REUSED',
    async () => {
      // A fetch that sends every request twice (a misbehaving proxy): the server runs the first
      // copy and refuses the second; the client's one re-signing meets the same.
      const twice = async (input: string, init: RequestInit) => {
        await fetch(input, init);
        return fetch(input, init);
      };
      const c = await keyClient({ scopes: [...SCOPES] }, undefined, { fetch: twice });
      return c.payoutDestinations.create({ chain: 'TRON', address: TRON_ADDRESS });
    },
  ],
  [
    'INVALID_HEADER',
    async () => {
      // Checkouts (the merchant writes that take Idempotency-Key) need a sandbox server with chains.
      const shop = await startRealServer({ checkouts: true });
      return client({ baseUrl: shop.url, apiKey: shop.demo.apiKey, apiSecret: shop.demo.apiSecret })
        .checkouts.create({ amount: '1', currency: 'USDT' }, { idempotencyKey: 'not a valid key!' })
        .finally(() => shop.close());
    },
  ],
  [
    'INVOICE_STATE_CONFLICT',
    async () => {
      // A draft has no number, so no PDF; finalize, void and send are the other moves it lacks.
      const c = await keyClient({});
      const draft = await c.invoices.create({ currency: 'EUR', lineItems: [line] });
      return c.invoices.void(draft.id);
    },
  ],
  [
    'CUSTOMER_EMAIL_MISSING',
    async () => {
      const c = await keyClient({});
      const invoice = await c.invoices.create({ currency: 'EUR', lineItems: [line], customer: { name: 'No Mail' } });
      await c.invoices.finalize(invoice.id);
      return c.invoices.send(invoice.id);
    },
  ],
  ['MISSING_HEADER', () => client({ fetch: tamper((h) => void delete h.signature) }).issueToken()],
  ['UNKNOWN_API_KEY', () => client({ apiKey: 'hp_unknown' }).listWallets()],
  ['INVALID_TIMESTAMP', () => client({ fetch: tamper((h) => void (h.timestamp = '1.5')) }).issueToken()],
  ['TIMESTAMP_OUT_OF_WINDOW', () => client({ fetch: tamper((h) => void (h.timestamp = '1000')) }).issueToken()],
  ['INVALID_SIGNATURE', () => client({ apiSecret: 'sk_wrong' }).listWallets()],
  [
    'SIGNATURE_V2_REQUIRED',
    async () => (await keyClient({ requireSignatureV2: true }, undefined, { signatureVersion: 1 })).listWallets(),
  ],
  ['INVALID_TOKEN', () => client({ bearerToken: 'not.a.token' }).listWallets()],
  [
    'TOKEN_EXPIRED',
    async () => {
      const { accessToken } = await client().issueToken({ expiresIn: 60 });
      server.shiftClock(120_000);
      return client({ bearerToken: accessToken, now: () => Date.now() + 120_000 })
        .listWallets()
        .finally(() => server.shiftClock(0));
    },
  ],
  [
    'TOKEN_KEY_MISMATCH',
    async () => {
      const { accessToken } = await client().issueToken();
      return (await keyClient({}, undefined, { bearerToken: accessToken })).listWallets();
    },
  ],
  ['MERCHANT_FORBIDDEN', () => client().listWallets({ merchantId: other.id })],
  [
    'KEY_REVOKED',
    async () => {
      const key = await server.services.admin.createApiKey(server.demo.merchantId, {}, ctx);
      await server.services.admin.revokeApiKey(key.apiKey, ctx);
      return client({ apiKey: key.apiKey, apiSecret: key.apiSecret }).listWallets();
    },
  ],
  ['KEY_EXPIRED', async () => (await keyClient({ expiresAt: '2020-01-01T00:00:00Z' })).listWallets()],
  [
    'SCOPE_MISSING',
    async () => (await keyClient({ scopes: ['wallets:read'] })).previewFees({ amount: 1, currency: 'USDT' }),
  ],
  ['IP_NOT_ALLOWED', async () => (await keyClient({ ipAllowList: ['203.0.113.0/24'] })).listWallets()],
  [
    'MERCHANT_SUSPENDED',
    async () => {
      const m = await server.services.admin.createMerchant('Suspended Shop', ctx);
      const c = await keyClient({}, m.id);
      await server.services.admin.updateMerchant(m.id, { status: 'suspended' }, ctx);
      return c.listWallets();
    },
  ],
  ['NOT_FOUND', () => client({ baseUrl: `${server.url}/nope` }).serverTime()],
  [
    'METHOD_NOT_ALLOWED',
    () => client({ fetch: tamper((h, init) => ({ ...init, headers: h, method: 'DELETE', body: null })) }).serverTime(),
  ],
  ['PAYLOAD_TOO_LARGE', () => client().issueToken({ scope: ['x'.repeat(64 * 1024)] })],
  [
    'UNSUPPORTED_MEDIA_TYPE',
    () => client({ fetch: tamper((h) => void (h['content-type'] = 'text/plain')) }).issueToken({ expiresIn: 600 }),
  ],
  ['UNSUPPORTED_CURRENCY', () => client().previewFees({ amount: 1, currency: 'ZZZ' })],
  ['NO_FEE_SCHEDULE', () => client().previewFees({ amount: 1, currency: 'TRX' })],
  ['NO_RATE', () => client().previewFees({ amount: 1, currency: 'USDC' })],
  [
    'RATE_STALE',
    async () => {
      // USD fees are charged in USDT (demo): its rate, as a feed that stopped answering 10 minutes ago left it.
      const fetchedAt = new Date(Date.now() - 600_000).toISOString();
      await server.services.store.db
        .updateTable('rates')
        .set({ pinned: 0, max_age_seconds: 60, fetched_at: fetchedAt })
        .where('base', '=', 'USD')
        .where('quote', '=', 'USDT')
        .execute();
      await server.services.caches.invalidate({ kind: 'fees' });
      return client().previewFees({ amount: 1, currency: 'USD' });
    },
  ],
  [
    'RATE_LIMITED',
    async () => {
      const c = await keyClient({ rateLimitPerMinute: 2 });
      await c.listWallets(); // the token request and this call use the two
      return c.listWallets();
    },
  ],
  [
    'INTERNAL',
    () =>
      client({ baseUrl: failing.url, apiKey: failing.demo.apiKey, apiSecret: failing.demo.apiSecret }).listWallets(),
  ],
  [
    'UNAVAILABLE',
    () =>
      client({ baseUrl: failing.url, apiKey: failing.demo.apiKey, apiSecret: failing.demo.apiSecret }).previewFees({
        amount: 1,
        currency: 'USDT',
      }),
  ],
];

/** Codes only the operator API can produce; the merchant endpoints never answer with them. */
const OPERATOR_ONLY: ErrorCode[] = [
  'IDEMPOTENCY_CONFLICT',
  'KEY_ALREADY_ROTATED',
  'CHAIN_NOT_CONFIGURED',
  'INVALID_URL',
  'CHECKOUT_STATE_CONFLICT',
  'NO_PAYABLE_OPTION',
  'CSRF_TOKEN_INVALID',
  // Needs a paid checkout (a sandbox server): client.checkouts.refund reaches it in e2e-payouts.test.ts.
  'REFUND_TOO_LARGE',
];
/** Codes only the merchant dashboard (session cookie, /dashboard/api) produces: packages/server/test/merchant-users/. */
const DASHBOARD_ONLY: ErrorCode[] = [
  'CSRF_FAILED',
  'ROLE_FORBIDDEN',
  'SESSION_REQUIRED',
  'SIGN_IN_FAILED',
  'TOTP_INVALID',
  'LINK_INVALID',
  'TEAM_CONFLICT',
  'ACCOUNT_LOCKED',
];
/**
 * The payment link page's code: `GET`/`POST /l/{slug}` answer an inactive, expired or used-up link
 * with a 410 HTML page (PAYMENT_LINK_UNAVAILABLE, details.reason), and no merchant route answers
 * it: packages/server/test/payment-links/page.test.ts and max-uses.test.ts produce it, and
 * e2e-commerce.test.ts sees the 410 after client.paymentLinks.deactivate.
 */
const PUBLIC_PAGES_ONLY: ErrorCode[] = ['PAYMENT_LINK_UNAVAILABLE'];
/** Codes for bytes no fetch sends (refused by Node's HTTP parser): packages/server/test/http-raw-socket.test.ts. */
const NOT_HTTP: ErrorCode[] = ['MALFORMED_REQUEST', 'REQUEST_TIMEOUT', 'EXPECTATION_FAILED', 'HEADERS_TOO_LARGE'];
/** A PostgreSQL pool with every connection busy (this test's server is SQLite): packages/server/test/faults/pool-busy.test.ts. */
const POSTGRES_ONLY: ErrorCode[] = ['STORE_BUSY'];

describe('every error code the merchant API can produce surfaces as a typed HostpayError (real server)', () => {
  it('covers every code of the protocol', () => {
    expect(
      [
        ...cases.map(([code]) => code),
        ...OPERATOR_ONLY,
        ...DASHBOARD_ONLY,
        ...NOT_HTTP,
        ...POSTGRES_ONLY,
        ...PUBLIC_PAGES_ONLY,
      ].sort(),
    ).toEqual([...ERROR_CODES].sort());
  });

  for (const [code, run] of cases) {
    it(`${ERROR_STATUS[code]} ${code}`, async () => {
      const error = await run().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(HostpayError);
      expect(error).toMatchObject({ code, status: ERROR_STATUS[code], requestId: expect.stringMatching(/.+/) });
      expect((error as HostpayError).message.length).toBeGreaterThan(10);
      if (code === 'TIMESTAMP_OUT_OF_WINDOW')
        expect((error as HostpayError).details?.serverTime).toEqual(expect.any(Number));
      if (code === 'RATE_LIMITED') expect((error as HostpayError).retryAfter).toBeGreaterThan(0);
      if (code === 'RATE_STALE') {
        expect((error as HostpayError).retryAfter).toBe(10);
        expect((error as HostpayError).details).toMatchObject({ pair: 'USD/USDT', maxAgeSeconds: 60 });
      }
      if (code === 'INTERNAL') expect((error as HostpayError).message).not.toMatch(/boom/);
    });
  }
});
