import { sign } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { ALICE, BOB, createAdminFixture, errorOf, resultOf, type AdminFixture } from './http-helpers/admin-fixture.js';

/**
 * The wall around /admin/v1: operator tokens only, checked before anything else, on every admin
 * route; operator tokens worth nothing on merchant routes; disabled without tokens.
 */
let fx: AdminFixture;
let key: { apiKey: string; apiSecret: string };
beforeAll(async () => {
  fx = await createAdminFixture();
  const merchant = await fx.services.admin.createMerchant('Wall Shop', { operator: 'test' });
  key = await fx.services.admin.createApiKey(merchant.id, {}, { operator: 'test' });
});
afterAll(() => fx.close());

/** Every admin route, with a method and a concrete path (ids need not exist: auth comes first). */
const ADMIN_ROUTES: [method: string, path: string][] = [
  ['POST', '/merchants'],
  ['GET', '/merchants'],
  ['GET', '/merchants/mer_x'],
  ['PATCH', '/merchants/mer_x'],
  ['POST', '/merchants/mer_x/suspend'],
  ['POST', '/merchants/mer_x/resume'],
  ['POST', '/merchants/mer_x/keys'],
  ['POST', '/merchants/mer_x/user-invitations'],
  ['POST', '/merchants/mer_x/user-reset-links'],
  ['GET', '/keys'],
  ['GET', '/keys/hp_x'],
  ['PATCH', '/keys/hp_x'],
  ['POST', '/keys/hp_x/revoke'],
  ['POST', '/keys/hp_x/rotate'],
  ['GET', '/keys/hp_x/grants'],
  ['POST', '/keys/hp_x/grants'],
  ['DELETE', '/keys/hp_x/grants/mer_x'],
  ['POST', '/merchants/mer_x/wallets'],
  ['GET', '/wallets'],
  ['GET', '/wallets/wal_x'],
  ['POST', '/wallets/wal_x/activate'],
  ['POST', '/wallets/wal_x/deactivate'],
  ['GET', '/assets/USDT/networks'],
  ['POST', '/wallets/wal_x/postings'],
  ['GET', '/wallets/wal_x/postings'],
  ['PUT', '/fees'],
  ['GET', '/fees'],
  ['DELETE', '/fees/fee_x'],
  ['GET', '/fees/preview?merchantId=mer_x&currency=EUR&amount=1'],
  ['PUT', '/settlement-currencies'],
  ['GET', '/settlement-currencies'],
  ['PUT', '/rates'],
  ['GET', '/rates'],
  ['GET', '/audit'],
  ['POST', '/transfers'],
  ['GET', '/transfers'],
  ['POST', '/transfers/trf_x/retract'],
  ['POST', '/transfers/trf_x/attach'],
  ['GET', '/checkouts'],
  ['GET', '/checkouts/chk_x'],
  ['GET', '/checkouts/chk_x/settle-preview'],
  ['POST', '/checkouts/chk_x/settle'],
  ['POST', '/checkouts/chk_x/reject'],
  ['GET', '/assets'],
  ['POST', '/assets'],
  ['GET', '/assets/DAI'],
  ['PATCH', '/assets/DAI'],
  ['GET', '/chains'],
  ['POST', '/chains'],
  ['GET', '/chains/BSC'],
  ['PATCH', '/chains/BSC'],
  ['PUT', '/chains/BSC/xpub'],
  ['GET', '/chains/BSC/xpub'],
  ['GET', '/networks'],
  ['POST', '/networks'],
  ['GET', '/networks/net_x'],
  ['PATCH', '/networks/net_x'],
  ['GET', '/addresses'],
  ['GET', '/webhook-endpoints'],
  ['GET', '/webhook-endpoints/we_x'],
  ['GET', '/webhook-endpoints/we_x/deliveries'],
  ['POST', '/webhook-endpoints/we_x/redeliver'],
  ['GET', '/stats'],
  ['GET', '/mail'],
  ['GET', '/mail/mail_x'],
  ['GET', '/reports/reconciliation'],
  ['GET', '/reports/ledger'],
  ['GET', '/chain-watches'],
  ['PUT', '/chains/BSC/watch'],
  ['GET', '/chains/BSC/watch'],
  ['DELETE', '/chains/BSC/watch'],
  ['GET', '/rate-spread'],
  ['PUT', '/rate-spread'],
  ['DELETE', '/rates/BTC/EUR'],
  ['PUT', '/rate-pairs/BTC/EUR'],
  ['GET', '/rate-pairs'],
  ['GET', '/rate-sources'],
  ['GET', '/rate-sources/src_x'],
  ['PUT', '/rate-sources/src_x'],
  ['DELETE', '/rate-sources/src_x'],
  ['GET', '/payouts'],
  ['GET', '/payouts/export'],
  ['GET', '/payouts/po_x'],
  ['POST', '/payouts/po_x/approve'],
  ['POST', '/payouts/po_x/reject'],
  ['POST', '/payouts/po_x/cancel'],
  ['POST', '/payouts/po_x/sent'],
  ['POST', '/payouts/po_x/complete'],
  ['POST', '/payouts/po_x/fail'],
  ['GET', '/payouts/po_x/hot-wallet'],
  ['POST', '/payouts/po_x/rebroadcast'],
  ['POST', '/payouts/po_x/cancel-by-replacement'],
  ['GET', '/payout-destinations'],
  ['POST', '/payout-destinations/dst_x/activate'],
  ['PUT', '/payout-fees'],
  ['GET', '/payout-fees'],
  ['PUT', '/chains/ETH/hot-wallet'],
  ['GET', '/chains/ETH/hot-wallet'],
  ['DELETE', '/chains/ETH/hot-wallet'],
];

const signed = (body = '') => {
  const timestamp = String(Math.floor(fx.now() / 1000));
  return { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, body) };
};
const merchantToken = async () =>
  (
    JSON.parse((await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers: signed() })).body) as {
      result: { accessToken: string };
    }
  ).result.accessToken;

describe.each(ADMIN_ROUTES)('%s %s', (method, path) => {
  it('without Authorization -> 401 MISSING_HEADER', async () => {
    const err = errorOf(await fx.call(method, path, { token: null }), 401, 'MISSING_HEADER');
    expect(err.error.details).toEqual({ missing: ['authorization'] });
  });
  it('with a wrong operator token -> 401 INVALID_TOKEN', async () => {
    errorOf(
      await fx.call(method, path, { token: ALICE.slice(0, -1) + (ALICE.endsWith('0') ? '1' : '0') }),
      401,
      'INVALID_TOKEN',
    );
  });
  it('with merchant credentials (signed headers + merchant JWT) -> 401 INVALID_TOKEN', async () => {
    errorOf(await fx.call(method, path, { token: await merchantToken(), headers: signed() }), 401, 'INVALID_TOKEN');
  });
  it('with the signed key headers alone -> 401 MISSING_HEADER', async () => {
    errorOf(await fx.call(method, path, { token: null, headers: signed() }), 401, 'MISSING_HEADER');
  });
});

describe('operator tokens', () => {
  for (const value of [
    `Token ${ALICE}`,
    ALICE,
    'Bearer',
    'Bearer ',
    `Bearer  ${ALICE}`,
    `Bearer ${ALICE} x`,
    `Basic ${Buffer.from(`alice:${ALICE}`).toString('base64')}`,
    `Bearer ${ALICE}${ALICE}`,
  ]) {
    it(`Authorization "${value.slice(0, 20)}…" -> 401 INVALID_TOKEN`, async () => {
      errorOf(
        await fx.call('GET', '/merchants', { token: null, headers: { authorization: value } }),
        401,
        'INVALID_TOKEN',
      );
    });
  }
  it('the scheme is case-insensitive and each operator is named in the audit log', async () => {
    const res = await fx.call('POST', '/merchants', {
      token: null,
      headers: { authorization: `bearer ${BOB}` },
      body: { name: 'By Bob' },
    });
    const merchant = resultOf(res, 201);
    const entries = resultOf(await fx.call('GET', `/audit?objectId=${merchant.id}`)).items;
    expect(entries).toMatchObject([
      { action: 'merchant.create', operator: 'bob', requestId: res.headers['x-request-id'] },
    ]);
  });
  it('every admin answer is no-store and carries the request id', async () => {
    const res = await fx.call('GET', '/merchants', { headers: { 'x-request-id': 'ops-check-1' } });
    resultOf(res);
    expect(res.headers['x-request-id']).toBe('ops-check-1');
    expect(errorOf(await fx.call('GET', '/merchants', { token: null }), 401, 'MISSING_HEADER')).toBeTruthy();
  });
});

describe('operator tokens are worth nothing on merchant routes', () => {
  for (const url of ['/api/v1/cp/wallets', '/api/v1/cp/psp/hosted-pay/fees-preview?amount=1&currency=USDT']) {
    it(`${url}: operator bearer alone -> 401 MISSING_HEADER`, async () => {
      errorOf(
        await fx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ALICE}` } }),
        401,
        'MISSING_HEADER',
      );
    });
    it(`${url}: signed key headers + operator bearer -> 401 INVALID_TOKEN`, async () => {
      errorOf(
        await fx.app.inject({ method: 'GET', url, headers: { ...signed(), authorization: `Bearer ${ALICE}` } }),
        401,
        'INVALID_TOKEN',
      );
    });
  }
  it('token route: operator bearer alone -> 401 MISSING_HEADER', async () => {
    errorOf(
      await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers: { authorization: `Bearer ${ALICE}` } }),
      401,
      'MISSING_HEADER',
    );
  });
});

describe('request checks', () => {
  it('415 for a body that is not JSON, 400 for malformed JSON, 413 for a huge body', async () => {
    errorOf(
      await fx.call('POST', '/merchants', {
        body: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    errorOf(await fx.call('POST', '/merchants', { body: '{"name":' }), 400, 'INVALID_BODY');
    errorOf(await fx.call('POST', '/merchants', { body: { name: 'x'.repeat(20_000) } }), 413, 'PAYLOAD_TOO_LARGE');
  });
  it('an Idempotency-Key outside 1-128 of [A-Za-z0-9_.:-] -> 400 naming the header', async () => {
    for (const bad of ['has space', 'x'.repeat(129), 'ümlaut']) {
      const err = errorOf(
        await fx.call('POST', '/merchants', { body: { name: 'x' }, headers: { 'idempotency-key': bad } }),
        400,
        'INVALID_HEADER',
      );
      expect(err.error.details).toEqual({ header: 'idempotency-key' });
    }
  });
  it('405 with Allow for a known path and another method', async () => {
    const res = await fx.call('PUT', '/merchants');
    errorOf(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toContain('POST');
  });
});

describe('failed operator authentication counts toward the per-address limit', () => {
  it('after the limit: 429 with Retry-After on admin routes; merchant routes and other addresses unaffected', async () => {
    const limited = await createAdminFixture('sqlite', { authFailureLimitPerMinute: 3 });
    try {
      const from = { remoteAddress: '198.51.100.77' };
      for (let i = 0; i < 3; i++)
        errorOf(await limited.call('GET', '/merchants', { token: 'wrong-token', ...from }), 401, 'INVALID_TOKEN');
      const blocked = await limited.call('GET', '/merchants', from);
      errorOf(blocked, 429, 'RATE_LIMITED');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Merchant failures are counted apart: the merchant side still evaluates this address.
      errorOf(await limited.app.inject({ method: 'GET', url: '/api/v1/cp/wallets', ...from }), 401, 'MISSING_HEADER');
      resultOf(await limited.call('GET', '/merchants', { remoteAddress: '198.51.100.78' }));
    } finally {
      await limited.close();
    }
  });
});

describe('disabled admin API', () => {
  it('no operator token configured: every admin path is 404 NOT_FOUND, and nothing admin in OpenAPI', async () => {
    const config = loadConfig({}, { dataDir: '/tmp/unused', logLevel: 'silent' });
    const app = await buildApp({
      config,
      services: fx.services.merchant,
      features: fx.services,
      admin: fx.services.admin,
      logger: false,
    });
    try {
      for (const [method, path] of [...ADMIN_ROUTES, ['GET', ''], ['GET', '/']] as const) {
        const res = await app.inject({
          method: method as 'GET',
          url: `/admin/v1${path}`,
          headers: { authorization: `Bearer ${ALICE}` },
        });
        const err = errorOf(res, 404, 'NOT_FOUND');
        expect(err.message).toContain('HOSTPAY_ADMIN_TOKEN');
      }
      const doc = JSON.parse((await app.inject({ method: 'GET', url: '/openapi.json' })).body) as {
        paths: Record<string, unknown>;
        components: { securitySchemes: Record<string, unknown> };
      };
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
      expect(doc.components.securitySchemes).not.toHaveProperty('operatorToken');
    } finally {
      await app.close();
    }
  });
  it('tokens configured but no admin services: disabled too', async () => {
    const app = await buildApp({
      config: fx.config,
      services: fx.services.merchant,
      features: fx.services,
      logger: false,
    });
    try {
      errorOf(
        await app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: { authorization: `Bearer ${ALICE}` } }),
        404,
        'NOT_FOUND',
      );
    } finally {
      await app.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents every admin route under the tag admin with the operatorToken scheme and its responses', async () => {
    const doc = JSON.parse((await fx.app.inject({ method: 'GET', url: '/openapi.json' })).body) as {
      tags: { name: string }[];
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
      paths: Record<
        string,
        Record<
          string,
          {
            tags: string[];
            security: object[];
            responses: Record<string, unknown>;
            parameters?: { name: string; in: string }[];
          }
        >
      >;
    };
    expect(doc.tags.map((t) => t.name)).toContain('admin');
    expect(doc.components.securitySchemes.operatorToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const ops = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/admin/v1'))
      .flatMap(([p, methods]) => Object.entries(methods).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })));
    expect(ops.length).toBe(ADMIN_ROUTES.length);
    for (const { key: name, op } of ops) {
      expect(op.tags, name).toEqual(['admin']);
      expect(op.security, name).toEqual([{ operatorToken: [] }]);
      expect(Object.keys(op.responses), name).toEqual(expect.arrayContaining(['401', '429', '500']));
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        name,
      ).toBe(true);
      if (/^(POST|PUT|PATCH|DELETE) /.test(name))
        expect(
          op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
          name,
        ).toBe(true);
    }
    const merchantOps = Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/v1/cp'));
    for (const [, methods] of merchantOps)
      for (const op of Object.values(methods)) expect(op.security).not.toContainEqual({ operatorToken: [] });
  });
});
