import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '@hostpay/protocol';
import { ALICE, adminCaller, OPERATOR_TOKENS, type CallOptions } from './http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { ResponseValidator, type OpenApiDoc } from './http-helpers/openapi-validator.js';
import { merchantHeaders, requestToken, signedHeaders } from './http-helpers/requests.js';
import { checkoutCall, configureChains } from './http-helpers/checkouts.js';
import { drain, merchantCall } from './http-helpers/webhooks.js';
import { cookieOf, createDashboardUser, dashboardSession, TEST_PASSWORD } from './http-helpers/dashboard-session.js';
import { totpCode } from '../src/features/merchant-users/totp.js';
import { stuckHotWalletPayout } from './http-helpers/hot-wallet-payout.js';

/**
 * Every documented operation is called, once to succeed and at least once to fail, and every
 * answer (errors included) is checked against the served /openapi.json: status documented,
 * content type documented, body valid against the schema (http-helpers/openapi-validator.ts).
 * The last test checks that nothing in the document went uncalled.
 */
let fx: HttpFixture;
let validator: ResponseValidator;
/** `METHOD /path/template` -> statuses seen. */
const seen = new Map<string, Set<number>>();

beforeAll(async () => {
  // A sandbox, so that simulate-payment answers too.
  fx = await createFixture({ adminTokens: OPERATOR_TOKENS, sandbox: true, console: true });
  await configureChains(fx.services);
  validator = new ResponseValidator((await fx.app.inject({ method: 'GET', url: '/openapi.json' })).json<OpenApiDoc>());
});
afterAll(() => fx.close());

/** Asserts `res` is the expected status and matches the document; returns its `result`. */
function verify(method: string, template: string, res: LightMyRequestResponse, status: number): any {
  expect(res.statusCode, `${method} ${template}: ${res.body}`).toBe(status);
  expect(validator.problems(method, template, res)).toEqual([]);
  const key = `${method} ${template}`;
  seen.set(key, (seen.get(key) ?? new Set()).add(status));
  return res.headers['content-type']?.toString().startsWith('application/json')
    ? (JSON.parse(res.body) as { result: unknown }).result
    : res.body;
}

const call = adminCaller(() => fx.app);
/** An admin call; `template` is the documented path under /admin/v1. */
const admin = async (method: string, template: string, url: string, status: number, options?: CallOptions) =>
  verify(method, `/admin/v1${template}`, await call(method, url, options), status);

describe('public routes', () => {
  it('time, liveness, readiness, metrics', async () => {
    const get = (url: string, app = fx.app) => app.inject({ method: 'GET', url });
    verify('GET', '/api/v1/time', await get('/api/v1/time'), 200);
    verify('GET', '/healthz', await get('/healthz'), 200);
    verify('GET', '/readyz', await get('/readyz'), 200);
    const scrape = (authorization?: string) =>
      fx.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    verify('GET', '/metrics', await scrape(`Bearer ${ALICE}`), 200);
    verify('GET', '/metrics', await scrape(), 401);
    const clockless = await fx.buildApp({
      now: () => {
        throw new Error('clock unavailable');
      },
    });
    verify('GET', '/api/v1/time', await get('/api/v1/time', clockless), 500);
    const storeless = await fx.buildApp({ merchant: { checkReady: () => Promise.reject(new Error('store down')) } });
    verify('GET', '/readyz', await get('/readyz', storeless), 503);
  });
});

describe('token route', () => {
  const T = '/api/v1/auth/token';
  it('issues tokens with and without a body, and documents its refusals', async () => {
    verify('POST', T, await requestToken(fx, fx.demo), 200);
    verify('POST', T, await requestToken(fx, fx.demo, '{"expiresIn": 600, "scope": ["wallets:read"]}'), 200);
    verify('POST', T, await requestToken(fx, { ...fx.demo, apiSecret: 'wrong' }), 401);
    verify('POST', T, await requestToken(fx, fx.demo, '{"expiresIn": "600"}'), 400);
    verify('POST', T, await requestToken(fx, fx.demo, '{"scope": ["admin"]}'), 403);
    const big = JSON.stringify({ scope: ['x'.repeat(5000)] });
    verify(
      'POST',
      T,
      await fx.app.inject({
        method: 'POST',
        url: T,
        headers: { ...signedHeaders(fx, fx.demo, { body: big }), 'content-type': 'application/json' },
        payload: big,
      }),
      413,
    );
    verify(
      'POST',
      T,
      await fx.app.inject({
        method: 'POST',
        url: T,
        headers: { ...signedHeaders(fx, fx.demo, { body: 'a=1' }), 'content-type': 'text/plain' },
        payload: 'a=1',
      }),
      415,
    );
  });
});

describe('merchant routes', () => {
  it('wallets (both spellings) and the fee preview, with their errors', async () => {
    const headers = await merchantHeaders(fx, fx.demo);
    const get = (url: string, h: Record<string, string> = headers) => fx.app.inject({ method: 'GET', url, headers: h });
    for (const path of ['/api/v1/cp/wallets/', '/api/v1/cp/wallets']) {
      expect((verify('GET', path, await get(path), 200) as unknown[]).length).toBeGreaterThan(0);
      verify('GET', path, await get(path, {}), 401);
      verify('GET', path, await get(`${path}?merchantId=mer_other`), 403);
      verify('GET', path, await get(`${path}?unknown=1`), 400);
    }
    const F = '/api/v1/cp/psp/hosted-pay/fees-preview';
    verify('GET', F, await get(`${F}?amount=99.95&currency=EUR`), 200);
    verify('GET', F, await get(`${F}?amount=12345.678901234567890123&currency=USDT`), 200);
    verify('GET', F, await get(`${F}?amount=0&currency=EUR`), 400);
    verify('GET', F, await get(`${F}?amount=10&currency=XYZ`), 422);
    verify('GET', F, await get(`${F}?amount=10&currency=EUR`, signedHeaders(fx, fx.demo)), 401);
  });
});

describe('admin routes', () => {
  let merchantId: string;
  let keyId: string;
  let walletId: string;

  it('merchants', async () => {
    merchantId = (await admin('POST', '/merchants', '/merchants', 201, { body: { name: 'Contract Shop' } })).id;
    await admin('POST', '/merchants', '/merchants', 400, { body: {} });
    await admin('POST', '/merchants', '/merchants', 401, { body: { name: 'x' }, token: null });
    await admin('GET', '/merchants', '/merchants?limit=1', 200);
    await admin('GET', '/merchants', '/merchants?limit=abc', 400);
    await admin('GET', '/merchants/{id}', `/merchants/${merchantId}`, 200);
    await admin('GET', '/merchants/{id}', '/merchants/mer_nobody', 404);
    await admin('PATCH', '/merchants/{id}', `/merchants/${merchantId}`, 200, { body: { name: 'Renamed' } });
    await admin('PATCH', '/merchants/{id}', `/merchants/${merchantId}`, 400, { body: {} });
    for (const action of ['suspend', 'resume']) {
      await admin('POST', `/merchants/{id}/${action}`, `/merchants/${merchantId}/${action}`, 200);
      await admin('POST', `/merchants/{id}/${action}`, `/merchants/mer_nobody/${action}`, 404);
    }
  });

  it('keys and grants, including an idempotent replay and a conflict', async () => {
    keyId = (
      await admin('POST', '/merchants/{id}/keys', `/merchants/${merchantId}/keys`, 201, {
        body: { label: 'contract' },
        idempotencyKey: 'key-1',
      })
    ).id;
    expect(
      (
        await admin('POST', '/merchants/{id}/keys', `/merchants/${merchantId}/keys`, 201, {
          body: { label: 'contract' },
          idempotencyKey: 'key-1',
        })
      ).id,
    ).toBe(keyId);
    await admin('POST', '/merchants/{id}/keys', `/merchants/${merchantId}/keys`, 409, {
      body: { label: 'other' },
      idempotencyKey: 'key-1',
    });
    await admin('POST', '/merchants/{id}/keys', '/merchants/mer_nobody/keys', 404, { body: {} });
    await admin('GET', '/keys', `/keys?merchantId=${merchantId}`, 200);
    await admin('GET', '/keys', '/keys?status=lost', 400);
    await admin('GET', '/keys/{id}', `/keys/${keyId}`, 200);
    await admin('GET', '/keys/{id}', '/keys/hp_nobody', 404);
    await admin('PATCH', '/keys/{id}', `/keys/${keyId}`, 200, { body: { rateLimitPerMinute: 100, ipAllowList: null } });
    await admin('PATCH', '/keys/{id}', `/keys/${keyId}`, 400, { body: {} });
    await admin('POST', '/keys/{id}/grants', `/keys/${keyId}/grants`, 201, {
      body: { merchantId: fx.demo.merchantId },
    });
    await admin('POST', '/keys/{id}/grants', '/keys/hp_nobody/grants', 404, { body: { merchantId } });
    await admin('GET', '/keys/{id}/grants', `/keys/${keyId}/grants`, 200);
    await admin('GET', '/keys/{id}/grants', '/keys/hp_nobody/grants', 404);
    await admin('DELETE', '/keys/{id}/grants/{merchantId}', `/keys/${keyId}/grants/${fx.demo.merchantId}`, 200);
    await admin('DELETE', '/keys/{id}/grants/{merchantId}', `/keys/hp_nobody/grants/${merchantId}`, 404);
    const rotated = await admin('POST', '/keys/{id}/rotate', `/keys/${keyId}/rotate`, 201);
    await admin('POST', '/keys/{id}/rotate', '/keys/hp_nobody/rotate', 404);
    await admin('POST', '/keys/{id}/revoke', `/keys/${(rotated as { new: { id: string } }).new.id}/revoke`, 200);
    await admin('POST', '/keys/{id}/revoke', '/keys/hp_nobody/revoke', 404);
  });

  it('wallets, networks and postings (exact decimals)', async () => {
    walletId = (
      await admin('POST', '/merchants/{id}/wallets', `/merchants/${merchantId}/wallets`, 201, {
        body: { asset: 'USDT', chain: 'TRON' },
      })
    ).id;
    await admin('POST', '/merchants/{id}/wallets', `/merchants/${merchantId}/wallets`, 422, {
      body: { asset: 'NOPE', chain: 'TRON' },
    });
    await admin('GET', '/wallets', `/wallets?merchantId=${merchantId}`, 200);
    await admin('GET', '/wallets', '/wallets?active=maybe', 400);
    await admin('GET', '/wallets/{id}', `/wallets/${walletId}`, 200);
    await admin('GET', '/wallets/{id}', '/wallets/wal_nobody', 404);
    for (const action of ['deactivate', 'activate']) {
      await admin('POST', `/wallets/{id}/${action}`, `/wallets/${walletId}/${action}`, 200);
      await admin('POST', `/wallets/{id}/${action}`, `/wallets/wal_nobody/${action}`, 404);
    }
    await admin('GET', '/assets/{symbol}/networks', '/assets/USDT/networks', 200);
    await admin('GET', '/assets/{symbol}/networks', '/assets/NOPE/networks', 422);
    const P = '/wallets/{id}/postings';
    const credit = { kind: 'credit', amount: '123456789012.345678', idempotencyKey: 'c-1' };
    const posted = await admin('POST', P, `/wallets/${walletId}/postings`, 201, { body: credit });
    expect(posted.replayed).toBe(false);
    expect((await admin('POST', P, `/wallets/${walletId}/postings`, 200, { body: credit })).replayed).toBe(true);
    await admin('POST', P, `/wallets/${walletId}/postings`, 422, { body: { kind: 'debit', amount: '999999999999' } });
    await admin('POST', P, `/wallets/${walletId}/postings`, 400, { body: { kind: 'credit', amount: 5 } });
    await admin('GET', P, `/wallets/${walletId}/postings`, 200);
    // The schema says number; the text keeps every digit (18 significant: more than a double holds).
    expect((await call('GET', `/wallets/${walletId}`)).body).toContain('"amount":123456789012.345678,');
    await admin('GET', P, '/wallets/wal_nobody/postings', 404);
  });

  it('fees, settlement currencies, rates and the audit log', async () => {
    const tier = await admin('PUT', '/fees', '/fees', 200, {
      body: { currency: 'USDT', merchantId, isPercentage: false, value: '2.5', fromAmount: '500' },
    });
    await admin('PUT', '/fees', '/fees', 400, { body: { currency: 'USDT', isPercentage: false } });
    await admin('GET', '/fees', `/fees?merchantId=${merchantId}`, 200);
    await admin('GET', '/fees', '/fees?currency=%24%24', 400);
    await admin('GET', '/fees/preview', `/fees/preview?merchantId=${merchantId}&currency=USDT&amount=750.5`, 200);
    await admin('GET', '/fees/preview', `/fees/preview?merchantId=${merchantId}&currency=GBP&amount=1`, 422);
    await admin('DELETE', '/fees/{id}', `/fees/${(tier as { id: string }).id}`, 200);
    await admin('DELETE', '/fees/{id}', '/fees/fee_nobody', 404);
    await admin('PUT', '/settlement-currencies', '/settlement-currencies', 200, {
      body: { currency: 'USD', settlementCurrency: 'USDT', merchantId },
    });
    await admin('PUT', '/settlement-currencies', '/settlement-currencies', 400, { body: { currency: 'USD' } });
    await admin('GET', '/settlement-currencies', '/settlement-currencies', 200);
    await admin('GET', '/settlement-currencies', '/settlement-currencies', 401, { token: 'not-an-operator' });
    await admin('PUT', '/rates', '/rates', 200, { body: { base: 'EUR', quote: 'USDT', rate: '1.084212345678901234' } });
    await admin('PUT', '/rates', '/rates', 400, { body: { base: 'EUR', quote: 'USDT', rate: 1.08 } });
    await admin('GET', '/rates', '/rates', 200);
    await admin('GET', '/rates', '/rates', 401, { token: null });
    expect((await admin('GET', '/audit', '/audit?limit=200', 200)).items.length).toBeGreaterThan(10);
    await admin('GET', '/audit', '/audit?since=yesterday', 400);
  });

  it('the default rate spread', async () => {
    await admin('PUT', '/rate-spread', '/rate-spread', 200, { body: { percent: '1.25' } });
    await admin('PUT', '/rate-spread', '/rate-spread', 400, { body: { percent: '11' } });
    await admin('GET', '/rate-spread', '/rate-spread', 200);
    await admin('GET', '/rate-spread', '/rate-spread', 401, { token: null });
    await admin('PUT', '/rate-spread', '/rate-spread', 200, { body: { percent: '0' } });
  });

  it('the catalog: assets, chains and their keys, networks, deposit addresses', async () => {
    await admin('GET', '/assets', '/assets', 200);
    await admin('GET', '/assets', '/assets', 401, { token: null });
    await admin('POST', '/assets', '/assets', 201, { body: { symbol: 'DAI', name: 'Dai', precision: 18 } });
    await admin('POST', '/assets', '/assets', 400, { body: { symbol: 'DAI', name: 'Dai', precision: 18 } });
    await admin('GET', '/assets/{symbol}', '/assets/DAI', 200);
    await admin('GET', '/assets/{symbol}', '/assets/NOPE', 404);
    await admin('PATCH', '/assets/{symbol}', '/assets/DAI', 200, { body: { name: 'Dai Stablecoin' } });
    await admin('PATCH', '/assets/{symbol}', '/assets/DAI', 400, { body: { precision: 19 } });
    await admin('GET', '/chains', '/chains', 200);
    await admin('GET', '/chains', '/chains', 401, { token: null });
    await admin('POST', '/chains', '/chains', 201, { body: { symbol: 'BSC', name: 'BNB Smart Chain', family: 'evm' } });
    await admin('POST', '/chains', '/chains', 400, { body: { symbol: 'SOL', name: 'Solana', family: 'solana' } });
    await admin('GET', '/chains/{symbol}', '/chains/BSC', 200);
    await admin('GET', '/chains/{symbol}', '/chains/NOPE', 404);
    await admin('PATCH', '/chains/{symbol}', '/chains/BSC', 200, { body: { confirmationsRequired: 15 } });
    await admin('PATCH', '/chains/{symbol}', '/chains/BSC', 400, { body: { family: 'btc' } });
    const xpub =
      'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt';
    await admin('GET', '/chains/{symbol}/xpub', '/chains/BSC/xpub', 404);
    await admin('PUT', '/chains/{symbol}/xpub', '/chains/BSC/xpub', 200, { body: { xpub } });
    await admin('PUT', '/chains/{symbol}/xpub', '/chains/BSC/xpub', 400, { body: { xpub: xpub.slice(0, -1) } });
    await admin('GET', '/chains/{symbol}/xpub', '/chains/BSC/xpub', 200);
    await admin('GET', '/networks', '/networks?asset=DAI', 200);
    await admin('GET', '/networks', '/networks?asset=%24', 400);
    const net = await admin('POST', '/networks', '/networks', 201, {
      body: { asset: 'DAI', chain: 'BSC', name: 'BEP20', tokenContract: '0x1af3f329e8be154074d8769d1ffa4ee058b1dbc3' },
    });
    await admin('POST', '/networks', '/networks', 400, {
      body: { asset: 'DAI', chain: 'BSC', name: 'BEP20', tokenContract: '0x12' },
    });
    await admin('GET', '/networks/{id}', `/networks/${(net as { id: string }).id}`, 200);
    await admin('GET', '/networks/{id}', '/networks/net_nobody', 404);
    await admin('PATCH', '/networks/{id}', `/networks/${(net as { id: string }).id}`, 200, {
      body: { depositEnabled: false },
    });
    await admin('PATCH', '/networks/{id}', '/networks/net_nobody', 404, { body: { depositEnabled: false } });
    await admin('GET', '/addresses', '/addresses?chain=BSC', 200);
    await admin('GET', '/addresses', '/addresses?chain=NOPE', 404);
  });
});

describe('refund routes', () => {
  it('a refund link, a refund without destination (a link), and their refusals', async () => {
    const C = '/api/v1/cp/psp/hosted-pay';
    // Refunds move money out: payouts:write, which a key gets only when asked for by name.
    const refunder = await fx.createKey(fx.demo.merchantId, { scopes: [...SCOPES] });
    const m = (url: string, body?: unknown) => checkoutCall(fx, refunder, 'POST', url, body);
    const paid = verify(
      'POST',
      C,
      await m(C, { amount: 10, currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] }),
      201,
    );
    await m(`${C}/${paid.id}/simulate-payment`, { asset: 'USDT', chain: 'TRON' });
    verify('POST', `${C}/{id}/refund-link`, await m(`${C}/${paid.id}/refund-link`, { amount: '4' }), 201);
    verify('POST', `${C}/{id}/refund-link`, await m(`${C}/${paid.id}/refund-link`, { amount: '11' }), 422);
    verify('POST', `${C}/{id}/refund-link`, await m(`${C}/chk_nobody/refund-link`, {}), 404);
    verify('POST', `${C}/{id}/refunds`, await m(`${C}/${paid.id}/refunds`, { amount: 2 }), 201);
    verify('POST', `${C}/{id}/refunds`, await m(`${C}/${paid.id}/refunds`, { amount: '10.5' }), 422);
    verify('POST', `${C}/{id}/refunds`, await m(`${C}/${paid.id}/refunds`, {}), 400);
    verify(
      'POST',
      `${C}/{id}/refunds`,
      await m(`${C}/${paid.id}/refunds`, { amount: 1, destination: '0x52908400098527886E0F7030069857D2E4169EE7' }),
      400,
    );
    const plain = await fx.createKey(fx.demo.merchantId); // the default scopes: no payouts:write
    verify(
      'POST',
      `${C}/{id}/refunds`,
      await checkoutCall(fx, plain, 'POST', `${C}/${paid.id}/refunds`, { amount: 1 }),
      403,
    );
    const get = (url: string) => checkoutCall(fx, refunder, 'GET', url);
    const money = verify('GET', `${C}/{id}/refunds`, await get(`${C}/${paid.id}/refunds`), 200) as {
      refunded: string;
      refundState: string | null;
      refunds: unknown[];
    };
    expect([String(money.refunded), money.refundState, money.refunds.length]).toEqual(['0', null, 0]); // a refund without destination is a link: nothing taken yet
    verify('GET', `${C}/{id}/refunds`, await get(`${C}/chk_nobody/refunds`), 404);
  });
});

describe('checkout routes (merchant and operator)', () => {
  it('create, list, get, cancel, simulate; transfers, review', async () => {
    const C = '/api/v1/cp/psp/hosted-pay';
    const m = (method: 'GET' | 'POST', url: string, body?: unknown) => checkoutCall(fx, fx.demo, method, url, body);
    const first = verify(
      'POST',
      C,
      await m('POST', C, { amount: '25.5', currency: 'EUR', orderId: 'o-1', metadata: { cart: '7' } }),
      201,
    );
    verify('POST', C, await m('POST', C, { amount: '-1', currency: 'EUR' }), 400);
    verify(
      'POST',
      C,
      await m('POST', C, { amount: '1', currency: 'EUR', paymentOptions: [{ asset: 'TRX', chain: 'TRON' }] }),
      422,
    );
    verify(
      'POST',
      C,
      await fx.app.inject({ method: 'POST', url: C, payload: '{}', headers: { 'content-type': 'application/json' } }),
      401,
    );
    verify('GET', C, await m('GET', `${C}?limit=1`), 200);
    verify('GET', C, await m('GET', `${C}?status=lost`), 400);
    verify('GET', `${C}/{id}`, await m('GET', `${C}/${first.id}`), 200);
    verify('GET', `${C}/{id}`, await m('GET', `${C}/chk_nobody`), 404);
    verify('GET', '/pay/{id}/status', await fx.app.inject({ method: 'GET', url: `/pay/${first.id}/status` }), 200);
    verify('GET', '/pay/{id}/status', await fx.app.inject({ method: 'GET', url: '/pay/chk_nobody/status' }), 404);
    verify(
      'POST',
      `${C}/{id}/simulate-payment`,
      await m('POST', `${C}/${first.id}/simulate-payment`, { asset: 'USDT', chain: 'TRON', amount: '1' }),
      200,
    );
    verify(
      'POST',
      `${C}/{id}/simulate-payment`,
      await m('POST', `${C}/${first.id}/simulate-payment`, { asset: 'USDT', chain: 'NOPE' }),
      400,
    );
    verify('POST', `${C}/{id}/cancel`, await m('POST', `${C}/${first.id}/cancel`), 409);
    const second = verify(
      'POST',
      C,
      await m('POST', C, { amount: 10, currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'ETH' }] }),
      201,
    );
    verify('POST', `${C}/{id}/cancel`, await m('POST', `${C}/${second.id}/cancel`), 200);

    const report = {
      chain: 'ETH',
      txHash: '0xabc1',
      index: 0,
      toAddress: second.paymentOptions[0].address,
      asset: 'USDT',
      amount: '10',
      confirmations: 1,
    };
    const late = await admin('POST', '/transfers', '/transfers', 201, { body: report });
    expect(late.checkout.status).toBe('needs_review');
    await admin('POST', '/transfers', '/transfers', 200, { body: report });
    await admin('POST', '/transfers', '/transfers', 400, { body: { ...report, amount: '-5' } });
    const stray = await admin('POST', '/transfers', '/transfers', 201, {
      body: { ...report, txHash: '0xabc2', toAddress: '0x0000000000000000000000000000000000000001' },
    });
    await admin('GET', '/transfers', '/transfers?matched=false', 200);
    await admin('GET', '/transfers', '/transfers?matched=maybe', 400);
    await admin('POST', '/transfers/{id}/attach', `/transfers/${stray.transfer.id}/attach`, 200, {
      body: { checkoutId: second.id },
    });
    await admin('POST', '/transfers/{id}/attach', '/transfers/trf_nobody/attach', 404, {
      body: { checkoutId: second.id },
    });
    await admin('POST', '/transfers/{id}/retract', `/transfers/${stray.transfer.id}/retract`, 200);
    await admin('POST', '/transfers/{id}/retract', '/transfers/trf_nobody/retract', 404);
    await admin('GET', '/checkouts', `/checkouts?merchantId=${fx.demo.merchantId}`, 200);
    await admin('GET', '/checkouts', '/checkouts?createdFrom=yesterday', 400);
    await admin('GET', '/checkouts/{id}', `/checkouts/${second.id}`, 200);
    await admin('GET', '/checkouts/{id}', '/checkouts/chk_nobody', 404);
    await admin('POST', '/checkouts/{id}/settle', `/checkouts/${first.id}/settle`, 409, { body: {} });
    await admin('GET', '/checkouts/{id}/settle-preview', `/checkouts/${first.id}/settle-preview`, 409);
    await admin('GET', '/checkouts/{id}/settle-preview', `/checkouts/${second.id}/settle-preview`, 200);
    expect(
      (await admin('POST', '/checkouts/{id}/settle', `/checkouts/${second.id}/settle`, 200, { body: {} })).status,
    ).toBe('settled');
    const third = verify(
      'POST',
      C,
      await m('POST', C, { amount: 10, currency: 'USDT', paymentOptions: [{ asset: 'USDT', chain: 'ETH' }] }),
      201,
    );
    await admin('POST', '/checkouts/{id}/reject', `/checkouts/${third.id}/reject`, 409);
    await m('POST', `${C}/${third.id}/cancel`);
    await admin('POST', '/transfers', '/transfers', 201, {
      body: { ...report, txHash: '0xabc3', toAddress: third.paymentOptions[0].address },
    });
    expect((await admin('POST', '/checkouts/{id}/reject', `/checkouts/${third.id}/reject`, 200)).status).toBe(
      'invalid',
    );
  });
});

describe('chain watches (operator)', () => {
  it('set, read, list, delete; refused URLs and adapter kinds', async () => {
    const W = '/chains/{symbol}/watch';
    await admin('PUT', W, '/chains/ETH/watch', 200, {
      body: { rpcUrl: 'http://127.0.0.1:8545/v3/0123456789abcdef0123', confirmations: 2 },
    });
    await admin('PUT', W, '/chains/ETH/watch', 400, { body: { rpcUrl: 'http://10.0.0.1:8545' } });
    // A Bitcoin chain is watched through a Bitcoin adapter, never an EVM one (and the other way round).
    await admin('PUT', W, '/chains/BTC/watch', 400, { body: { rpcUrl: 'http://127.0.0.1:8545', kind: 'evm-rpc' } });
    await admin('PUT', W, '/chains/BTC/watch', 200, { body: { rpcUrl: 'http://127.0.0.1:3002', kind: 'esplora' } });
    await admin('DELETE', W, '/chains/BTC/watch', 200);
    await admin('GET', W, '/chains/ETH/watch', 200);
    await admin('GET', '/chain-watches', '/chain-watches', 200);
    await admin('GET', '/chain-watches', '/chain-watches', 401, { token: null });
    await admin('DELETE', W, '/chains/ETH/watch', 200);
    await admin('GET', W, '/chains/ETH/watch', 404);
    await admin('DELETE', W, '/chains/ETH/watch', 404);
  });
});

describe('rates: pins, pair rules and rate sources (operator)', () => {
  it('delete a rate; pair rules; sources set, read, list, delete; refused URLs', async () => {
    await admin('PUT', '/rates', '/rates', 200, { body: { base: 'BTC', quote: 'USD', rate: '63000.5' } });
    await admin('DELETE', '/rates/{base}/{quote}', '/rates/BTC/USD', 200);
    await admin('DELETE', '/rates/{base}/{quote}', '/rates/BTC/USD', 404);
    const R = '/rate-pairs/{base}/{quote}';
    await admin('PUT', R, '/rate-pairs/EUR/BTC', 200, { body: { allowCross: true, maxDeviationPercent: '2.5' } });
    await admin('PUT', R, '/rate-pairs/EUR/BTC', 400, { body: { maxDeviationPercent: 2.5 } });
    await admin('GET', '/rate-pairs', '/rate-pairs', 200);
    await admin('GET', '/rate-pairs', '/rate-pairs', 401, { token: null });
    const S = '/rate-sources/{id}';
    await admin('PUT', S, '/rate-sources/cb', 200, {
      body: { kind: 'coinbase', baseUrl: 'http://127.0.0.1:9/proxy', pairs: ['BTC/EUR'], refreshSeconds: 30 },
    });
    await admin('PUT', S, '/rate-sources/cb', 400, {
      body: { kind: 'coinbase', baseUrl: 'http://10.0.0.1', pairs: ['BTC/EUR'] },
    });
    await admin('PUT', S, '/rate-sources/cb', 422, { body: { kind: 'coinbase', pairs: ['BTC/XYZ'] } });
    await admin('GET', S, '/rate-sources/cb', 200);
    await admin('GET', '/rate-sources', '/rate-sources', 200);
    await admin('GET', '/rate-sources', '/rate-sources', 401, { token: null });
    await admin('DELETE', S, '/rate-sources/cb', 200);
    await admin('GET', S, '/rate-sources/cb', 404);
    await admin('DELETE', S, '/rate-sources/cb', 404);
  });
});

describe('EVM hot wallets (operator)', () => {
  it('set (given or generated), read, delete; refused keys and chains', async () => {
    const H = '/chains/{symbol}/hot-wallet';
    await admin('PUT', H, '/chains/ETH/hot-wallet', 200, {
      body: { privateKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' },
    });
    await admin('PUT', H, '/chains/ETH/hot-wallet', 200, { body: {} });
    await admin('PUT', H, '/chains/ETH/hot-wallet', 400, { body: { privateKey: 'z'.repeat(64) } });
    await admin('PUT', H, '/chains/BTC/hot-wallet', 400, { body: {} });
    await admin('GET', H, '/chains/ETH/hot-wallet', 200);
    await admin('GET', H, '/chains/ETH/hot-wallet', 401, { token: null });
    await admin('DELETE', H, '/chains/ETH/hot-wallet', 200);
    await admin('GET', H, '/chains/ETH/hot-wallet', 404);
    await admin('DELETE', H, '/chains/ETH/hot-wallet', 404);
  });
});

describe('events and webhook endpoints (merchant and operator)', () => {
  it("events, endpoints, secrets, tests, deliveries, redelivery, replay; the operators' view", async () => {
    const m = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      merchantCall(fx, fx.demo, method, url, body);
    const V = '/api/v1/cp/events';
    const W = '/api/v1/cp/webhook-endpoints';
    const endpoint = verify(
      'POST',
      W,
      await m('POST', W, {
        url: 'http://127.0.0.1:9/hooks',
        enabledEvents: ['checkout.settled'],
        description: 'contract',
      }),
      201,
    );
    verify('POST', W, await m('POST', W, { url: 'https://10.0.0.1/hooks' }), 400);
    verify('GET', W, await m('GET', `${W}?limit=1`), 200);
    verify('GET', W, await m('GET', `${W}?limit=0`), 400);
    verify('GET', `${W}/{id}`, await m('GET', `${W}/${endpoint.id}`), 200);
    verify('GET', `${W}/{id}`, await m('GET', `${W}/we_nobody`), 404);
    verify(
      'PATCH',
      `${W}/{id}`,
      await m('PATCH', `${W}/${endpoint.id}`, { description: null, enabledEvents: [] }),
      200,
    );
    verify('PATCH', `${W}/{id}`, await m('PATCH', `${W}/${endpoint.id}`, { url: 'https://169.254.169.254/' }), 400);
    verify('POST', `${W}/{id}/rotate-secret`, await m('POST', `${W}/${endpoint.id}/rotate-secret`), 200);
    verify('POST', `${W}/{id}/rotate-secret`, await m('POST', `${W}/we_nobody/rotate-secret`), 404);
    const ping = verify('POST', `${W}/{id}/test`, await m('POST', `${W}/${endpoint.id}/test`), 202);
    verify('POST', `${W}/{id}/test`, await m('POST', `${W}/we_nobody/test`), 404);
    await drain(fx.services.webhooks.worker);
    expect(verify('GET', `${W}/{id}/deliveries`, await m('GET', `${W}/${endpoint.id}/deliveries`), 200)).toHaveLength(
      1,
    );
    verify('GET', `${W}/{id}/deliveries`, await m('GET', `${W}/we_nobody/deliveries`), 404);
    verify(
      'POST',
      `${W}/{id}/replay`,
      await m('POST', `${W}/${endpoint.id}/replay`, { since: '2020-01-01T00:00:00Z' }),
      202,
    );
    verify('POST', `${W}/{id}/replay`, await m('POST', `${W}/${endpoint.id}/replay`, {}), 400);
    verify('GET', V, await m('GET', `${V}?limit=2&type=checkout.created,test.ping`), 200);
    verify('GET', V, await m('GET', `${V}?type=nope`), 400);
    expect(verify('GET', `${V}/stream`, await m('GET', `${V}/stream?afterSequence=0&maxSeconds=0`), 200)).toContain(
      'event: test.ping',
    );
    verify('GET', `${V}/stream`, await m('GET', `${V}/stream?maxSeconds=9999`), 400);
    verify('GET', `${V}/{id}`, await m('GET', `${V}/${ping.eventId}`), 200);
    verify('GET', `${V}/{id}`, await m('GET', `${V}/evt_nobody`), 404);
    verify(
      'POST',
      `${V}/{id}/redeliver`,
      await m('POST', `${V}/${ping.eventId}/redeliver`, { endpointId: endpoint.id }),
      202,
    );
    verify('POST', `${V}/{id}/redeliver`, await m('POST', `${V}/evt_nobody/redeliver`), 404);
    await admin('GET', '/webhook-endpoints', `/webhook-endpoints?merchantId=${fx.demo.merchantId}`, 200);
    await admin('GET', '/webhook-endpoints', '/webhook-endpoints?disabled=maybe', 400);
    await admin('GET', '/webhook-endpoints/{id}', `/webhook-endpoints/${endpoint.id}`, 200);
    await admin('GET', '/webhook-endpoints/{id}', '/webhook-endpoints/we_nobody', 404);
    await admin(
      'GET',
      '/webhook-endpoints/{id}/deliveries',
      `/webhook-endpoints/${endpoint.id}/deliveries?limit=5`,
      200,
    );
    await admin('GET', '/webhook-endpoints/{id}/deliveries', '/webhook-endpoints/we_nobody/deliveries', 404);
    await admin('POST', '/webhook-endpoints/{id}/redeliver', `/webhook-endpoints/${endpoint.id}/redeliver`, 202, {
      body: { eventId: ping.eventId },
    });
    await admin('POST', '/webhook-endpoints/{id}/redeliver', `/webhook-endpoints/${endpoint.id}/redeliver`, 404, {
      body: { eventId: 'evt_nobody' },
    });
    verify('DELETE', `${W}/{id}`, await m('DELETE', `${W}/${endpoint.id}`), 200);
    verify('DELETE', `${W}/{id}`, await m('DELETE', `${W}/${endpoint.id}`), 404);
  });
});

describe('the console overview and session routes', () => {
  it('stats; sign in, read the session, sign out', async () => {
    await admin('GET', '/stats', '/stats', 200);
    await admin('GET', '/stats', '/stats?from=2027-01-02T00:00:00Z&to=2027-01-01T00:00:00Z', 400);
    await fx.services.admin.inviteMerchantUser(fx.demo.merchantId, 'mail-doc@example.com', 'viewer', {
      operator: 'test',
    });
    const mails = (await admin('GET', '/mail', '/mail', 200)) as { items: { id: string }[] };
    await admin('GET', '/mail', '/mail?status=nope', 400);
    await admin('GET', '/mail/{id}', `/mail/${mails.items[0]!.id}`, 200);
    await admin('GET', '/mail/{id}', '/mail/mail_nobody', 404);
    const S = '/console/session';
    verify('POST', S, await fx.app.inject({ method: 'POST', url: S, payload: { token: 'not-a-token' } }), 401);
    const signIn = await fx.app.inject({ method: 'POST', url: S, payload: { token: ALICE } });
    const session = verify('POST', S, signIn, 201) as { csrfToken: string };
    const cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
    verify('GET', S, await fx.app.inject({ method: 'GET', url: S, headers: { cookie } }), 200);
    verify('GET', S, await fx.app.inject({ method: 'GET', url: S }), 401);
    verify('DELETE', S, await fx.app.inject({ method: 'DELETE', url: S, headers: { cookie } }), 403);
    verify(
      'DELETE',
      S,
      await fx.app.inject({ method: 'DELETE', url: S, headers: { cookie, 'x-csrf-token': session.csrfToken } }),
      200,
    );
  });
});

describe('the validator', () => {
  const fake = (statusCode: number, contentType: string, body: string) =>
    ({ statusCode, headers: { 'content-type': contentType }, body }) as unknown as LightMyRequestResponse;
  const json = 'application/json; charset=utf-8';
  const ok = JSON.stringify({
    status: true,
    message: 'alive',
    isSuccess: true,
    result: { status: 'alive', sandbox: false },
  });

  it('accepts a documented answer and refuses the wrong shape, status, content type or path', () => {
    expect(validator.problems('GET', '/healthz', fake(200, json, ok))).toEqual([]);
    expect(
      validator.problems('GET', '/healthz', fake(200, json, ok.replace('"status":"alive"', '"status":"dead"'))),
    ).toHaveLength(1);
    expect(validator.problems('GET', '/healthz', fake(200, json, '{"status":true}'))).toHaveLength(1);
    expect(validator.problems('GET', '/healthz', fake(418, json, ok))[0]).toContain('status not documented');
    expect(validator.problems('GET', '/healthz', fake(200, 'text/html', ok))[0]).toContain(
      'content type text/html not documented',
    );
    expect(validator.problems('GET', '/nowhere', fake(200, json, ok))[0]).toContain('not in the document');
  });
});

describe('payout routes (merchant and operator)', () => {
  it('destinations, requests, the manual sender, simulate, fees', async () => {
    const ctx = { operator: 'test' };
    const merchantId = await fx.createMerchant('Payout Shop');
    const key = await fx.createKey(merchantId, { scopes: [...SCOPES] });
    const walletId = (await fx.services.admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
    await fx.services.admin.post({ walletId, kind: 'credit', amount: '50' }, ctx);
    const P = '/api/v1/cp/payouts';
    const D = '/api/v1/cp/payout-destinations';
    const m = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
      checkoutCall(fx, key, method, url, body);
    const address = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const dst = verify('POST', D, await m('POST', D, { chain: 'TRON', address }), 201);
    verify('POST', D, await m('POST', D, { chain: 'TRON', address: 'T123' }), 400);
    verify('GET', D, await m('GET', `${D}?limit=1`), 200);
    verify('GET', D, await m('GET', `${D}?limit=0`), 400);
    await admin('GET', '/payout-destinations', `/payout-destinations?merchantId=${merchantId}`, 200);
    await admin('GET', '/payout-destinations', '/payout-destinations?status=lost', 400);
    verify('POST', P, await m('POST', P, { walletId, amount: '1', destinationId: dst.id }), 422);
    await admin('POST', '/payout-destinations/{id}/activate', `/payout-destinations/${dst.id}/activate`, 200, {
      body: {},
    });
    await admin('POST', '/payout-destinations/{id}/activate', `/payout-destinations/${dst.id}/activate`, 409, {
      body: {},
    });
    await admin('PUT', '/payout-fees', '/payout-fees', 200, {
      body: { chain: 'TRON', asset: 'USDT', networkFee: '0.5' },
    });
    await admin('PUT', '/payout-fees', '/payout-fees', 404, {
      body: { chain: 'NOPE', asset: 'USDT', networkFee: '0.5' },
    });
    await admin('GET', '/payout-fees', '/payout-fees', 200);
    await admin('GET', '/payout-fees', '/payout-fees', 401, { token: null });
    const first = verify(
      'POST',
      P,
      await m('POST', P, { walletId, amount: '2', destinationId: dst.id, reference: 'r1' }),
      201,
    );
    verify('GET', P, await m('GET', `${P}?status=pending_approval`), 200);
    verify('GET', P, await m('GET', `${P}?status=lost`), 400);
    verify('GET', `${P}/{id}`, await m('GET', `${P}/${first.id}`), 200);
    verify('GET', `${P}/{id}`, await m('GET', `${P}/po_nobody`), 404);
    await admin('GET', '/payouts', '/payouts?status=pending_approval', 200);
    await admin('GET', '/payouts', '/payouts?status=lost', 400);
    await admin('GET', '/payouts/{id}', `/payouts/${first.id}`, 200);
    await admin('GET', '/payouts/{id}', '/payouts/po_nobody', 404);
    await admin('POST', '/payouts/{id}/approve', `/payouts/${first.id}/approve`, 200, { body: {} });
    await admin('POST', '/payouts/{id}/approve', `/payouts/${first.id}/approve`, 409, { body: {} });
    await admin('GET', '/payouts/export', '/payouts/export?format=csv', 200);
    await admin('GET', '/payouts/export', '/payouts/export?format=xml', 400);
    await admin('POST', '/payouts/{id}/complete', `/payouts/${first.id}/complete`, 409, { body: {} });
    await admin('POST', '/payouts/{id}/sent', `/payouts/${first.id}/sent`, 400, { body: {} });
    await admin('POST', '/payouts/{id}/sent', `/payouts/${first.id}/sent`, 200, {
      body: { txHash: 'abc', networkFee: '0.4' },
    });
    await admin('POST', '/payouts/{id}/complete', `/payouts/${first.id}/complete`, 200, { body: {} });
    await admin('POST', '/payouts/{id}/fail', `/payouts/${first.id}/fail`, 409, { body: { reason: 'x' } });
    const second = verify('POST', P, await m('POST', P, { walletId, amount: '1', destinationId: dst.id }), 201);
    await admin('POST', '/payouts/{id}/reject', `/payouts/${second.id}/reject`, 400, { body: {} });
    await admin('POST', '/payouts/{id}/reject', `/payouts/${second.id}/reject`, 200, { body: { reason: 'unknown' } });
    await admin('POST', '/payouts/{id}/cancel', `/payouts/${second.id}/cancel`, 409, { body: {} });
    const third = verify('POST', P, await m('POST', P, { walletId, amount: '1', destinationId: dst.id }), 201);
    verify('POST', `${P}/{id}/simulate`, await m('POST', `${P}/${third.id}/simulate`, { outcome: 'completed' }), 409);
    await admin('POST', '/payouts/{id}/approve', `/payouts/${third.id}/approve`, 200, { body: {} });
    verify('POST', `${P}/{id}/simulate`, await m('POST', `${P}/${third.id}/simulate`, { outcome: 'failed' }), 200);
    const fourth = verify('POST', P, await m('POST', P, { walletId, amount: '1', destinationId: dst.id }), 201);
    await admin('POST', '/payouts/{id}/approve', `/payouts/${fourth.id}/approve`, 200, { body: {} });
    await admin('POST', '/payouts/{id}/sent', `/payouts/${fourth.id}/sent`, 200, { body: { txHash: 'def' } });
    await admin('POST', '/payouts/{id}/fail', `/payouts/${fourth.id}/fail`, 200, { body: { reason: 'dropped' } });
    const fifth = verify('POST', P, await m('POST', P, { walletId, amount: '1', destinationId: dst.id }), 201);
    await admin('POST', '/payouts/{id}/cancel', `/payouts/${fifth.id}/cancel`, 200, { body: {} });
    verify('POST', `${P}/{id}/cancel`, await m('POST', `${P}/${fifth.id}/cancel`, {}), 409);
    const sixth = verify('POST', P, await m('POST', P, { walletId, amount: '1', destinationId: dst.id }), 201);
    verify('POST', `${P}/{id}/cancel`, await m('POST', `${P}/${sixth.id}/cancel`, {}), 200);
    verify('DELETE', `${D}/{id}`, await m('DELETE', `${D}/${dst.id}`), 200);
    verify('DELETE', `${D}/{id}`, await m('DELETE', `${D}/${dst.id}`), 409);
  });
});

describe("the dashboard home and a checkout's webhook deliveries (merchant)", () => {
  it('summary; deliveries of a checkout', async () => {
    const C = '/api/v1/cp/psp/hosted-pay';
    const S = '/api/v1/cp/summary';
    const m = (method: 'GET' | 'POST', url: string, body?: unknown) => checkoutCall(fx, fx.demo, method, url, body);
    const summary = verify('GET', S, await m('GET', S), 200);
    expect(summary.settled.monthFrom).toMatch(/-01T00:00:00.000Z$/);
    verify('GET', S, await m('GET', `${S}?since=yesterday`), 400);
    const created = verify('POST', C, await m('POST', C, { amount: '10', currency: 'EUR' }), 201);
    verify('GET', `${C}/{id}/webhook-deliveries`, await m('GET', `${C}/${created.id}/webhook-deliveries?limit=5`), 200);
    verify('GET', `${C}/{id}/webhook-deliveries`, await m('GET', `${C}/chk_nobody/webhook-deliveries`), 404);
  });
});

describe('settings (merchant)', () => {
  it('read and change; a colour below AA and an unknown language refused', async () => {
    const S = '/api/v1/cp/settings';
    const m = (method: 'GET' | 'PATCH', body?: unknown) => checkoutCall(fx, fx.demo, method, S, body);
    verify('GET', S, await m('GET'), 200);
    verify('GET', S, await checkoutCall(fx, fx.demo, 'GET', `${S}?merchantId=mer_nobody`), 403);
    verify('PATCH', S, await m('PATCH', { brandColor: '#0b57d0', accentColor: '#036', language: 'de' }), 200);
    verify('PATCH', S, await m('PATCH', { brandColor: '#ffd700' }), 400);
    verify('PATCH', S, await m('PATCH', { brandColor: null, accentColor: null, language: null }), 200);
  });
});

describe('reports, the statement and search (merchant)', () => {
  it('a CSV and an NDJSON report, the statement, search; their refusals', async () => {
    const R = '/api/v1/cp/reports';
    const m = (url: string) => checkoutCall(fx, fx.demo, 'GET', url);
    const range = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date().toISOString()}`;
    verify('GET', `${R}/{kind}`, await m(`${R}/ledger?${range}`), 200);
    verify('GET', `${R}/{kind}`, await m(`${R}/checkouts?${range}&format=ndjson`), 200);
    verify('GET', `${R}/{kind}`, await m(`${R}/ledger?from=2027-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`), 400);
    verify('GET', `${R}/statement`, await m(`${R}/statement?month=2026-11`), 200);
    verify('GET', `${R}/statement`, await m(`${R}/statement?month=2026-13`), 400);
    verify('GET', '/api/v1/cp/search', await m('/api/v1/cp/search?q=demo-settled-1'), 200);
    verify('GET', '/api/v1/cp/search', await m('/api/v1/cp/search?q=ab'), 400);
  });
});

describe('payment links (merchant)', () => {
  it('create, list, read, update, its checkouts; their refusals', async () => {
    const L = '/api/v1/cp/payment-links';
    const m = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
      checkoutCall(fx, fx.demo, method, url, body);
    const link = verify('POST', L, await m('POST', L, { name: 'Donation', currency: 'USDT', amount: '5' }), 201);
    const id = (link as { id: string }).id;
    verify('POST', L, await m('POST', L, { name: 'Bad', currency: 'USDT', amount: '-5' }), 400);
    verify('GET', L, await m('GET', `${L}?limit=1`), 200);
    verify('GET', L, await m('GET', `${L}?limit=0`), 400);
    verify('GET', `${L}/{id}`, await m('GET', `${L}/${id}`), 200);
    verify('GET', `${L}/{id}`, await m('GET', `${L}/plink_missing`), 404);
    verify('PATCH', `${L}/{id}`, await m('PATCH', `${L}/${id}`, { active: false }), 200);
    verify('PATCH', `${L}/{id}`, await m('PATCH', `${L}/${id}`, { amount: '6' }), 400);
    verify('GET', `${L}/{id}/checkouts`, await m('GET', `${L}/${id}/checkouts`), 200);
    verify('GET', `${L}/{id}/checkouts`, await m('GET', `${L}/plink_missing/checkouts`), 404);
  });
});

describe('invoices (merchant)', () => {
  it('draft, edit, delete, finalize, void, mark uncollectible, send, PDF; their refusals', async () => {
    const I = '/api/v1/cp/invoices';
    const m = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
      checkoutCall(fx, fx.demo, method, url, body);
    const draft = {
      currency: 'USDT',
      customer: { name: 'Ada', email: 'ada@example.com' },
      lineItems: [{ description: 'Work', quantity: 2, unitAmount: '10' }],
    };
    const make = async () => (verify('POST', I, await m('POST', I, draft), 201) as { id: string }).id;
    const a = await make();
    verify('POST', I, await m('POST', I, { ...draft, currency: '' }), 400);
    verify('GET', I, await m('GET', `${I}?limit=1`), 200);
    verify('GET', I, await m('GET', `${I}?limit=0`), 400);
    verify('GET', `${I}/{id}`, await m('GET', `${I}/${a}`), 200);
    verify('GET', `${I}/{id}`, await m('GET', `${I}/inv_missing`), 404);
    verify('PATCH', `${I}/{id}`, await m('PATCH', `${I}/${a}`, { memo: 'Thanks' }), 200);
    verify('GET', `${I}/{id}/pdf`, await m('GET', `${I}/${a}/pdf`), 409);
    verify('POST', `${I}/{id}/void`, await m('POST', `${I}/${a}/void`, {}), 409);
    verify('POST', `${I}/{id}/mark-uncollectible`, await m('POST', `${I}/${a}/mark-uncollectible`, {}), 409);
    verify('POST', `${I}/{id}/send`, await m('POST', `${I}/${a}/send`, {}), 409);
    verify('POST', `${I}/{id}/finalize`, await m('POST', `${I}/${a}/finalize`, {}), 200);
    verify('POST', `${I}/{id}/finalize`, await m('POST', `${I}/${a}/finalize`, {}), 409);
    verify('PATCH', `${I}/{id}`, await m('PATCH', `${I}/${a}`, { memo: 'Late' }), 409);
    verify('DELETE', `${I}/{id}`, await m('DELETE', `${I}/${a}`), 409);
    verify('GET', `${I}/{id}/pdf`, await m('GET', `${I}/${a}/pdf`), 200);
    verify('POST', `${I}/{id}/send`, await m('POST', `${I}/${a}/send`, {}), 200);
    verify('POST', `${I}/{id}/mark-uncollectible`, await m('POST', `${I}/${a}/mark-uncollectible`, {}), 200);
    const b = await make();
    verify('DELETE', `${I}/{id}`, await m('DELETE', `${I}/${b}`), 200);
    const c = await make();
    await m('POST', `${I}/${c}/finalize`, {});
    verify('POST', `${I}/{id}/void`, await m('POST', `${I}/${c}/void`, {}), 200);
  });
});

describe('reports and the reconciliation (operator)', () => {
  it('every merchant’s report as CSV and NDJSON, the reconciliation; their refusals', async () => {
    const range = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date().toISOString()}`;
    await admin('GET', '/reports/{kind}', `/reports/ledger?${range}`, 200);
    await admin(
      'GET',
      '/reports/{kind}',
      `/reports/payouts?${range}&format=ndjson&merchantId=${fx.demo.merchantId}`,
      200,
    );
    await admin('GET', '/reports/{kind}', `/reports/fees?${range}&merchantId=mer_nobody`, 404);
    await admin('GET', '/reports/{kind}', '/reports/ledger?from=2027-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 400);
    await admin('GET', '/reports/reconciliation', `/reports/reconciliation?${range}`, 200);
    await admin('GET', '/reports/reconciliation', '/reports/reconciliation?from=2027-01-01T00:00:00Z', 400);
  });
});

describe('merchant dashboard: accounts, team and security log', () => {
  it('every account and team route, signed in and not', async () => {
    const D = '/dashboard/api';
    const inject = (method: string, url: string, headers: Record<string, string> = {}, body?: unknown) =>
      fx.app.inject({
        method: method as 'GET',
        url,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    const v = async (
      method: string,
      template: string,
      url: string,
      status: number,
      headers?: Record<string, string>,
      body?: unknown,
    ) => verify(method, template, await inject(method, url, headers, body), status);
    // The operator invites the first owner; the owner accepts, enrols and is signed in.
    const merchantId = (await admin('POST', '/merchants', '/merchants', 201, { body: { name: 'Dashboard Shop' } })).id;
    const invited = await admin(
      'POST',
      '/merchants/{id}/user-invitations',
      `/merchants/${merchantId}/user-invitations`,
      201,
      {
        body: { email: 'Owner@Shop.example' },
      },
    );
    await admin('POST', '/merchants/{id}/user-invitations', `/merchants/${merchantId}/user-invitations`, 409, {
      body: { email: 'owner@shop.example' },
    });
    const token = String(invited.link).split('/').pop()!;
    expect(await v('GET', `${D}/invitations/{token}`, `${D}/invitations/${token}`, 200)).toMatchObject({
      email: 'owner@shop.example',
      role: 'owner',
      merchantName: 'Dashboard Shop',
    });
    await v('GET', `${D}/invitations/{token}`, `${D}/invitations/nope`, 404);
    await v(
      'POST',
      `${D}/invitations/{token}/accept`,
      `${D}/invitations/${token}/accept`,
      400,
      {},
      { password: 'short' },
    );
    const acceptRes = await inject('POST', `${D}/invitations/${token}/accept`, {}, { password: TEST_PASSWORD });
    const enrol = verify('POST', `${D}/invitations/{token}/accept`, acceptRes, 200);
    await v(
      'POST',
      `${D}/invitations/{token}/accept`,
      `${D}/invitations/${token}/accept`,
      404,
      {},
      { password: TEST_PASSWORD },
    );
    const halfHeaders = { cookie: cookieOf(acceptRes), 'x-csrf-token': enrol.csrfToken };
    await v('POST', `${D}/totp/confirm`, `${D}/totp/confirm`, 401, halfHeaders, { code: '000000' });
    await v('POST', `${D}/totp/confirm`, `${D}/totp/confirm`, 403, { cookie: halfHeaders.cookie }, { code: '000000' });
    const confirmRes = await inject('POST', `${D}/totp/confirm`, halfHeaders, {
      code: totpCode(enrol.totpSecret, fx.now()),
    });
    const confirmed = verify('POST', `${D}/totp/confirm`, confirmRes, 200);
    expect(confirmed.recoveryCodes).toHaveLength(10);
    const owner = { cookie: cookieOf(confirmRes), 'x-csrf-token': confirmed.session.csrfToken };
    await v('GET', `${D}/session`, `${D}/session`, 200, owner);
    await v('GET', `${D}/session`, `${D}/session`, 401);
    // Sign-in, both steps.
    await v(
      'POST',
      `${D}/sign-in`,
      `${D}/sign-in`,
      401,
      {},
      { email: 'owner@shop.example', password: 'wrong password!' },
    );
    await v('POST', `${D}/sign-in`, `${D}/sign-in`, 400, {}, { email: 'owner@shop.example' });
    const signIn = await inject('POST', `${D}/sign-in`, {}, { email: 'owner@shop.example', password: TEST_PASSWORD });
    const stage = verify('POST', `${D}/sign-in`, signIn, 200);
    const half = { cookie: cookieOf(signIn), 'x-csrf-token': stage.csrfToken };
    await v('POST', `${D}/sign-in/totp`, `${D}/sign-in/totp`, 401, half, { code: '123456' });
    await v('POST', `${D}/sign-in/totp`, `${D}/sign-in/totp`, 200, half, { recoveryCode: confirmed.recoveryCodes[0] });
    // The team: invite, list, revoke; a member's role and removal; reset links.
    const T = `${D}/team`;
    const inv = await v('POST', `${T}/invitations`, `${T}/invitations`, 201, owner, {
      email: 'dev@shop.example',
      role: 'developer',
    });
    await v('POST', `${T}/invitations`, `${T}/invitations`, 409, owner, {
      email: 'dev@shop.example',
      role: 'developer',
    });
    const team = await v('GET', T, T, 200, owner);
    expect(team.invitations.map((i: { email: string }) => i.email)).toEqual(['dev@shop.example']);
    await v('GET', T, T, 401);
    await v('DELETE', `${T}/invitations/{id}`, `${T}/invitations/${inv.id}`, 200, owner);
    await v('DELETE', `${T}/invitations/{id}`, `${T}/invitations/${inv.id}`, 404, owner);
    const member = await createDashboardUser(fx, merchantId, 'viewer');
    await v('PATCH', `${T}/users/{id}`, `${T}/users/${member.userId}`, 200, owner, { role: 'developer' });
    await v('PATCH', `${T}/users/{id}`, `${T}/users/${confirmed.session.user.id}`, 409, owner, { role: 'admin' });
    const reset = await v('POST', `${T}/users/{id}/reset-link`, `${T}/users/${member.userId}/reset-link`, 201, owner);
    await v('POST', `${T}/users/{id}/reset-link`, `${T}/users/usr_nobody/reset-link`, 404, owner);
    const resetToken = String(reset.link).split('/').pop()!;
    await v('GET', `${D}/password-reset/{token}`, `${D}/password-reset/${resetToken}`, 200);
    await v(
      'POST',
      `${D}/password-reset/{token}`,
      `${D}/password-reset/${resetToken}`,
      200,
      {},
      { password: 'a brand new password' },
    );
    await v('GET', `${D}/password-reset/{token}`, `${D}/password-reset/${resetToken}`, 404);
    await v(
      'POST',
      `${D}/password-reset-requests`,
      `${D}/password-reset-requests`,
      202,
      {},
      { email: 'nobody@example.com' },
    );
    await v('POST', `${D}/password-reset-requests`, `${D}/password-reset-requests`, 400, {}, { email: 'A <a@b.com>' });
    await v(
      'POST',
      `${D}/password-reset/{token}`,
      `${D}/password-reset/${resetToken}`,
      404,
      {},
      { password: 'a brand new password' },
    );
    const opReset = await admin(
      'POST',
      '/merchants/{id}/user-reset-links',
      `/merchants/${merchantId}/user-reset-links`,
      201,
      {
        body: { email: 'owner@shop.example' },
      },
    );
    expect(opReset.link).toMatch(/\/dashboard\/password-reset\/[A-Za-z0-9_-]{43}$/);
    await admin('POST', '/merchants/{id}/user-reset-links', `/merchants/${merchantId}/user-reset-links`, 404, {
      body: { email: 'nobody@shop.example' },
    });
    await v('DELETE', `${T}/users/{id}`, `${T}/users/${member.userId}`, 200, owner);
    await v('DELETE', `${T}/users/{id}`, `${T}/users/${member.userId}`, 404, owner);
    const log = await v('GET', `${D}/security-log`, `${D}/security-log?limit=50`, 200, owner);
    expect(log.map((e: { action: string }) => e.action)).toContain('invitation.accepted');
    await v('GET', `${D}/security-log`, `${D}/security-log?limit=0`, 400, owner);
    // Password change, sign-out, sign-out everywhere.
    await v('POST', `${D}/password`, `${D}/password`, 401, owner, {
      currentPassword: 'not it at all',
      newPassword: 'another long password',
    });
    await v('POST', `${D}/password`, `${D}/password`, 200, owner, {
      currentPassword: TEST_PASSWORD,
      newPassword: 'another long password',
    });
    await v('POST', `${D}/sign-out`, `${D}/sign-out`, 403, { cookie: owner.cookie });
    await v('POST', `${D}/sign-out-everywhere`, `${D}/sign-out-everywhere`, 403, { cookie: owner.cookie });
    const second = await dashboardSession(fx, merchantId, 'admin');
    await v('POST', `${D}/sign-out-everywhere`, `${D}/sign-out-everywhere`, 200, second.headers());
    await v('POST', `${D}/sign-out`, `${D}/sign-out`, 200, owner);
    await v('GET', `${D}/session`, `${D}/session`, 401, owner);
  });
});

describe('a hot-wallet payout stuck in flight (operator)', () => {
  it('its transactions, rebroadcast, cancel by replacement; refusals', async () => {
    await admin('GET', '/payouts/{id}/hot-wallet', '/payouts/po_nobody/hot-wallet', 404);
    await admin('POST', '/payouts/{id}/rebroadcast', '/payouts/po_nobody/rebroadcast', 404, { body: {} });
    await admin('POST', '/payouts/{id}/cancel-by-replacement', '/payouts/po_nobody/cancel-by-replacement', 404, {
      body: {},
    });
    const stuck = await stuckHotWalletPayout(fx.services);
    try {
      const id = stuck.payoutId;
      await admin('GET', '/payouts/{id}/hot-wallet', `/payouts/${id}/hot-wallet`, 200);
      await admin('POST', '/payouts/{id}/rebroadcast', `/payouts/${id}/rebroadcast`, 200, { body: {} });
      await admin('POST', '/payouts/{id}/cancel-by-replacement', `/payouts/${id}/cancel-by-replacement`, 200, {
        body: {},
      });
      // Mined: nothing to send again, no replacement possible.
      await stuck.chain.mine(1);
      await fx.services.hotWallet.sender.round('ETH');
      await admin('POST', '/payouts/{id}/rebroadcast', `/payouts/${id}/rebroadcast`, 409, { body: {} });
    } finally {
      await stuck.anvil.stop();
    }
  });
});

describe('coverage', () => {
  /** Their only documented failure is 500 INTERNAL, which no request can provoke. */
  const NO_PROVOKABLE_ERROR = new Set(['GET /healthz']);

  it('every documented operation was answered with a success and a failure, each checked', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(validator.doc.paths)) {
      for (const method of Object.keys(item)) {
        const key = `${method.toUpperCase()} ${path}`;
        const statuses = [...(seen.get(key) ?? [])];
        if (!statuses.some((s) => s < 300)) missing.push(`${key}: no success`);
        if (!NO_PROVOKABLE_ERROR.has(key) && !statuses.some((s) => s >= 400)) missing.push(`${key}: no error`);
      }
    }
    expect(missing).toEqual([]);
    expect(seen.size).toBeGreaterThanOrEqual(40);
  });
});
