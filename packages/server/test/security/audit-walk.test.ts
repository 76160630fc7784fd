import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-list.js';
import { adminCaller, OPERATOR_TOKENS, type CallOptions } from '../http-helpers/admin-fixture.js';
import { configureChains } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';

/**
 * Every operator write is audited (issue 24 item 4): the walk below calls each write route the
 * app registered under /admin/v1 (read from the app itself, not from a list kept by hand) once,
 * successfully, with its own request id, and then finds that request's audit entry: the
 * operator's name, the request id, and what the object was before and after. A new write route
 * fails the first test until it has a step here, and the second until it writes its entry.
 */
let fx: HttpFixture;
const call = adminCaller(() => fx.app);
const merchantOf = () => fx.demo.merchantId!;

beforeAll(async () => {
  fx = await createFixture({ adminTokens: OPERATOR_TOKENS, sandbox: true });
  await configureChains(fx.services);
});
afterAll(() => fx.close());

/** The routes as `METHOD /path/{param}`, the spelling of the steps below. */
const writeRoutes = () =>
  [
    ...new Set(
      registeredRoutes(fx.app)
        .filter((r) => r.url.startsWith('/admin/v1/') && !['GET', 'HEAD', 'OPTIONS'].includes(r.method))
        .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`),
    ),
  ].sort();

const ids: Record<string, string> = {};
const result = (res: LightMyRequestResponse): any => (JSON.parse(res.body) as { result: unknown }).result;

const checkoutInReview = async (txHash: string) => {
  const c = (await fx.services.checkouts.create(merchantOf(), {
    amount: '10',
    currency: 'USDT',
    paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
  } as never)) as unknown as { id: string; paymentOptions: { address: string }[] };
  await fx.services.checkouts.cancel(merchantOf(), c.id);
  // A payment after the cancel: the checkout waits for an operator (needs_review, paid_late).
  await fx.services.checkouts.reportTransfer(
    {
      chain: 'ETH',
      txHash,
      index: 0,
      toAddress: c.paymentOptions[0]!.address,
      asset: 'USDT',
      amount: '10',
      confirmations: 1,
    },
    { operator: 'test' },
  );
  return c.id;
};

const XPUB =
  'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt';

/** A merchant with 100 USDT on TRON and a destination still cooling off, for the payout steps. */
const payoutSetup = async () => {
  const ctx = { operator: 'test' };
  const merchantId = (await fx.services.admin.createMerchant('Payout Walk Shop', ctx)).id;
  ids.payoutMerchant = merchantId;
  ids.payoutWallet = (await fx.services.admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
  await fx.services.admin.post({ walletId: ids.payoutWallet, kind: 'credit', amount: '100' }, ctx);
  ids.destination = (
    await fx.services.payouts.addDestination(merchantId, {
      chain: 'TRON',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    })
  ).id;
};
const payout = async () =>
  (
    await fx.services.payouts.create(ids.payoutMerchant!, {
      walletId: ids.payoutWallet!,
      amount: '1',
      destinationId: ids.destination!,
    })
  ).id;

/** One successful call per write route, in an order where each finds what it needs. */
/**
 * Writes that need a transaction the hot wallet signed (a chain node): their audit entries are
 * checked on anvil, through the same admin routes, in test/payouts/evm-cancel.test.ts
 * (payout.cancel_by_replacement and its outcome, payout.rebroadcast) and in the console's browser test.
 */
const AUDITED_ON_ANVIL = [
  'POST /admin/v1/payouts/{id}/cancel-by-replacement',
  'POST /admin/v1/payouts/{id}/rebroadcast',
];

const STEPS: [route: string, run: () => Promise<[path: string, options: CallOptions]>][] = [
  ['POST /admin/v1/merchants', async () => ['/merchants', { body: { name: 'Audit Walk Shop' } }]],
  ['PATCH /admin/v1/merchants/{id}', async () => [`/merchants/${ids.merchant}`, { body: { name: 'Renamed' } }]],
  ['POST /admin/v1/merchants/{id}/suspend', async () => [`/merchants/${ids.merchant}/suspend`, {}]],
  ['POST /admin/v1/merchants/{id}/resume', async () => [`/merchants/${ids.merchant}/resume`, {}]],
  ['POST /admin/v1/merchants/{id}/keys', async () => [`/merchants/${ids.merchant}/keys`, { body: { label: 'walk' } }]],
  [
    'POST /admin/v1/merchants/{id}/user-invitations',
    async () => [`/merchants/${ids.merchant}/user-invitations`, { body: { email: 'owner@walk.example' } }],
  ],
  [
    'POST /admin/v1/merchants/{id}/user-reset-links',
    async () => {
      await fx.services.merchantUsers.team.createEnrolled(
        ids.merchant!,
        'locked@walk.example',
        'owner',
        'a long walk password',
      );
      return [`/merchants/${ids.merchant}/user-reset-links`, { body: { email: 'locked@walk.example' } }];
    },
  ],
  ['PATCH /admin/v1/keys/{id}', async () => [`/keys/${ids.key}`, { body: { rateLimitPerMinute: 100 } }]],
  ['POST /admin/v1/keys/{id}/grants', async () => [`/keys/${ids.key}/grants`, { body: { merchantId: merchantOf() } }]],
  ['DELETE /admin/v1/keys/{id}/grants/{merchantId}', async () => [`/keys/${ids.key}/grants/${merchantOf()}`, {}]],
  ['POST /admin/v1/keys/{id}/rotate', async () => [`/keys/${ids.key}/rotate`, {}]],
  ['POST /admin/v1/keys/{id}/revoke', async () => [`/keys/${ids.key}/revoke`, {}]],
  [
    'POST /admin/v1/merchants/{id}/wallets',
    async () => [`/merchants/${ids.merchant}/wallets`, { body: { asset: 'USDT', chain: 'TRON' } }],
  ],
  ['POST /admin/v1/wallets/{id}/deactivate', async () => [`/wallets/${ids.wallet}/deactivate`, {}]],
  ['POST /admin/v1/wallets/{id}/activate', async () => [`/wallets/${ids.wallet}/activate`, {}]],
  [
    'POST /admin/v1/wallets/{id}/postings',
    async () => [`/wallets/${ids.wallet}/postings`, { body: { kind: 'credit', amount: '12.5' } }],
  ],
  [
    'PUT /admin/v1/fees',
    async () => [
      '/fees',
      { body: { currency: 'USDT', merchantId: ids.merchant, isPercentage: false, value: '2.5', fromAmount: '500' } },
    ],
  ],
  ['DELETE /admin/v1/fees/{id}', async () => [`/fees/${ids.fee}`, {}]],
  [
    'PUT /admin/v1/settlement-currencies',
    async () => [
      '/settlement-currencies',
      { body: { currency: 'USD', settlementCurrency: 'USDT', merchantId: ids.merchant } },
    ],
  ],
  ['PUT /admin/v1/rates', async () => ['/rates', { body: { base: 'EUR', quote: 'USDT', rate: '1.0842' } }]],
  ['DELETE /admin/v1/rates/{base}/{quote}', async () => ['/rates/EUR/USDT', {}]],
  ['PUT /admin/v1/rate-pairs/{base}/{quote}', async () => ['/rate-pairs/EUR/BTC', { body: { allowCross: true } }]],
  [
    'PUT /admin/v1/rate-sources/{id}',
    async () => [
      '/rate-sources/cb',
      { body: { kind: 'coinbase', baseUrl: 'http://127.0.0.1:9/p', pairs: ['BTC/EUR'] } },
    ],
  ],
  ['DELETE /admin/v1/rate-sources/{id}', async () => ['/rate-sources/cb', {}]],
  ['PUT /admin/v1/rate-spread', async () => ['/rate-spread', { body: { percent: '0.5' } }]],
  ['POST /admin/v1/assets', async () => ['/assets', { body: { symbol: 'DAI', name: 'Dai', precision: 18 } }]],
  ['PATCH /admin/v1/assets/{symbol}', async () => ['/assets/DAI', { body: { name: 'Dai Stablecoin' } }]],
  [
    'POST /admin/v1/chains',
    async () => ['/chains', { body: { symbol: 'BSC', name: 'BNB Smart Chain', family: 'evm' } }],
  ],
  ['PATCH /admin/v1/chains/{symbol}', async () => ['/chains/BSC', { body: { confirmationsRequired: 15 } }]],
  ['PUT /admin/v1/chains/{symbol}/xpub', async () => ['/chains/BSC/xpub', { body: { xpub: XPUB } }]],
  [
    'POST /admin/v1/networks',
    async () => [
      '/networks',
      {
        body: {
          asset: 'DAI',
          chain: 'BSC',
          name: 'BEP20',
          tokenContract: '0x1af3f329e8be154074d8769d1ffa4ee058b1dbc3',
        },
      },
    ],
  ],
  ['PATCH /admin/v1/networks/{id}', async () => [`/networks/${ids.network}`, { body: { depositEnabled: false } }]],
  [
    'POST /admin/v1/transfers',
    async () => {
      ids.review = await checkoutInReview('0xwalk1');
      ids.reject = await checkoutInReview('0xwalk2');
      return [
        '/transfers',
        {
          body: {
            chain: 'ETH',
            txHash: '0xwalkstray',
            index: 0,
            toAddress: '0x0000000000000000000000000000000000000001',
            asset: 'USDT',
            amount: '3',
            confirmations: 1,
          },
        },
      ];
    },
  ],
  [
    'POST /admin/v1/transfers/{id}/attach',
    async () => [`/transfers/${ids.transfer}/attach`, { body: { checkoutId: ids.reject } }],
  ],
  ['POST /admin/v1/transfers/{id}/retract', async () => [`/transfers/${ids.transfer}/retract`, {}]],
  ['POST /admin/v1/checkouts/{id}/settle', async () => [`/checkouts/${ids.review}/settle`, { body: {} }]],
  ['POST /admin/v1/checkouts/{id}/reject', async () => [`/checkouts/${ids.reject}/reject`, {}]],
  [
    'PUT /admin/v1/chains/{symbol}/watch',
    async () => ['/chains/ETH/watch', { body: { rpcUrl: 'http://127.0.0.1:9/v3/0123456789abcdef', confirmations: 2 } }],
  ],
  ['DELETE /admin/v1/chains/{symbol}/watch', async () => ['/chains/ETH/watch', {}]],
  ['PUT /admin/v1/chains/{symbol}/hot-wallet', async () => ['/chains/ETH/hot-wallet', { body: {} }]],
  ['DELETE /admin/v1/chains/{symbol}/hot-wallet', async () => ['/chains/ETH/hot-wallet', {}]],
  [
    'PUT /admin/v1/payout-fees',
    async () => ['/payout-fees', { body: { chain: 'TRON', asset: 'USDT', networkFee: '0.5' } }],
  ],
  [
    'POST /admin/v1/payout-destinations/{id}/activate',
    async () => {
      await payoutSetup();
      return [`/payout-destinations/${ids.destination}/activate`, {}];
    },
  ],
  [
    'POST /admin/v1/payouts/{id}/approve',
    async () => {
      ids.payout = await payout();
      return [`/payouts/${ids.payout}/approve`, {}];
    },
  ],
  ['POST /admin/v1/payouts/{id}/sent', async () => [`/payouts/${ids.payout}/sent`, { body: { txHash: '0xwalk' } }]],
  ['POST /admin/v1/payouts/{id}/complete', async () => [`/payouts/${ids.payout}/complete`, {}]],
  ['POST /admin/v1/payouts/{id}/reject', async () => [`/payouts/${await payout()}/reject`, { body: { reason: 'no' } }]],
  ['POST /admin/v1/payouts/{id}/cancel', async () => [`/payouts/${await payout()}/cancel`, {}]],
  [
    'POST /admin/v1/payouts/{id}/fail',
    async () => {
      const id = await payout();
      const audit = { operator: 'test' };
      await fx.services.payouts.approve(id, audit);
      await fx.services.payouts.markSent(id, { txHash: '0xwalkfail' }, audit);
      return [`/payouts/${id}/fail`, { body: { reason: 'dropped' } }];
    },
  ],
  [
    'POST /admin/v1/webhook-endpoints/{id}/redeliver',
    async () => {
      const endpoint = await fx.services.webhooks.endpoints.create(merchantOf(), { url: 'http://127.0.0.1:9/hooks' });
      const event = await fx.services.store.db
        .selectFrom('events')
        .select('id')
        .where('merchant_id', '=', merchantOf())
        .executeTakeFirstOrThrow();
      return [`/webhook-endpoints/${endpoint.id}/redeliver`, { body: { eventId: event.id } }];
    },
  ],
];

/** What later steps need from an answer. */
function remember(route: string, res: LightMyRequestResponse): void {
  const r = result(res);
  if (route === 'POST /admin/v1/merchants') ids.merchant = r.id;
  if (route === 'POST /admin/v1/merchants/{id}/keys') ids.key = r.id;
  if (route === 'POST /admin/v1/merchants/{id}/wallets') ids.wallet = r.id;
  if (route === 'PUT /admin/v1/fees') ids.fee = r.id;
  if (route === 'POST /admin/v1/networks') ids.network = r.id;
  if (route === 'POST /admin/v1/transfers') ids.transfer = r.transfer.id;
}

describe('operator writes and the audit log', () => {
  it('every registered /admin/v1 write route has a step in the walk', () => {
    const routes = writeRoutes();
    expect(routes.length).toBeGreaterThan(30);
    expect([...STEPS.map(([route]) => route), ...AUDITED_ON_ANVIL].sort()).toEqual(routes);
  });

  it('each write leaves an entry with the operator, its request id, and the object before or after', async () => {
    const db = fx.services.store.db;
    const missing: string[] = [];
    for (const [i, [route, run]] of STEPS.entries()) {
      const [path, options] = await run();
      const requestId = `audit-walk-${i}`;
      const method = route.split(' ')[0]!;
      const res = await call(method, path, { ...options, headers: { 'x-request-id': requestId } });
      expect(res.statusCode, `${route}: ${res.body}`).toBeLessThan(300);
      expect(res.headers['x-request-id']).toBe(requestId);
      remember(route, res);
      const entries = await db.selectFrom('audit_log').selectAll().where('request_id', '=', requestId).execute();
      if (entries.length === 0) {
        missing.push(route);
        continue;
      }
      for (const e of entries) {
        expect(e.operator, route).toBe('alice');
        expect(e.before !== null || e.after !== null, `${route}: ${e.action} has neither before nor after`).toBe(true);
      }
    }
    expect(missing).toEqual([]);
  });

  it('a transfer report is audited with the checkout it settled and the credit', async () => {
    const db = fx.services.store.db;
    const settle = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'transfer.report')
      .where('operator', '=', 'alice')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(settle.after!)).toMatchObject({ txHash: '0xwalkstray', exception: 'unmatched', amount: 3 });
    // A settling report through the route: settle + credit in the entry's after.
    const c = (await fx.services.checkouts.create(merchantOf(), {
      amount: '10',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
    } as never)) as unknown as { id: string; paymentOptions: { address: string; amountDue: unknown }[] };
    const body = {
      chain: 'ETH',
      txHash: '0xwalksettle',
      index: 0,
      toAddress: c.paymentOptions[0]!.address,
      asset: 'USDT',
      amount: String(c.paymentOptions[0]!.amountDue),
      confirmations: 20,
    };
    const res = await call('POST', '/transfers', { headers: { 'x-request-id': 'audit-walk-settle' }, body });
    expect(res.statusCode, res.body).toBe(201);
    const entry = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('request_id', '=', 'audit-walk-settle')
      .executeTakeFirstOrThrow();
    expect(entry.before).toBeNull();
    const after = JSON.parse(entry.after!) as { checkoutId: string; checkout: Record<string, unknown> };
    expect(after.checkoutId).toBe(c.id);
    expect(after.checkout).toMatchObject({ from: 'open', status: 'settled', creditedPostingId: expect.any(String) });
    // The same report again changes nothing and writes no second entry.
    const repeat = await call('POST', '/transfers', { headers: { 'x-request-id': 'audit-walk-repeat' }, body });
    expect(repeat.statusCode, repeat.body).toBe(200);
    expect(
      await db.selectFrom('audit_log').select('id').where('request_id', '=', 'audit-walk-repeat').execute(),
    ).toEqual([]);
  });
});
