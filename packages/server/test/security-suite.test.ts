import { ErrorEnvelope, SCOPES } from '@hostpay/protocol';
import { Value } from '@sinclair/typebox/value';
import type { LightMyRequestResponse } from 'fastify';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, createAdminFixture, type AdminFixture } from './http-helpers/admin-fixture.js';
import { ATTACKS, signedHeaders, validRequest, type Expect, type Req, type World } from './security/attacks.js';
import { ROUTES, type RouteLine } from './security/routes.js';
import type { Role } from '../src/auth/principal.js';
import { cookieOf, createDashboardUser, dashboardSession } from './http-helpers/dashboard-session.js';

/**
 * The security suite as data: every attack of security/attacks.ts against every route of
 * security/routes.ts, merchant and operator alike. A route missing from the table fails the
 * coverage check below; adding its one line puts it under every attack.
 */
let fx: AdminFixture;
let world: World;
/** The hot wallet key on ETH, without its 0x, lower case: no answer may hold it in any spelling. */
const HOT_KEY = generatePrivateKey();
const HOT_HEX = HOT_KEY.slice(2).toLowerCase();
beforeAll(async () => {
  // Sessions send many requests a minute as one user: their per-user limit is not what is tested here.
  fx = await createAdminFixture('sqlite', { console: true, rateLimitPerMinute: 1_000_000 });
  const ctx = { operator: 'security-suite' };
  const merchant = await fx.services.admin.createMerchant('Target Shop', ctx);
  await fx.services.admin.setFee({ currency: 'USDT', isPercentage: true, value: '1' }, ctx);
  // A hot wallet, so the key exists to be echoed by any route under any attack (issue 28 item 6).
  await fx.services.admin.setHotWallet('ETH', { privateKey: HOT_KEY }, ctx);
  // Every scope, payouts:write included (never granted by default): the baseline reaches every route.
  const scopes = [...SCOPES];
  const key = await fx.services.admin.createApiKey(merchant.id, { scopes }, ctx);
  const otherKey = await fx.services.admin.createApiKey(merchant.id, { scopes }, ctx);
  const v2Key = await fx.services.admin.createApiKey(merchant.id, { requireSignatureV2: true, scopes }, ctx);
  const signIn = await fx.app.inject({ method: 'POST', url: '/console/session', payload: { token: ALICE } });
  const consoleSession = {
    cookie: String(signIn.headers['set-cookie']).split(';')[0]!,
    csrf: (JSON.parse(signIn.body) as { result: { csrfToken: string } }).result.csrfToken,
  };
  const dashboard = async (role: Role) => {
    const s = await dashboardSession(fx, merchant.id, role);
    return { cookie: s.cookie, csrf: s.csrfToken };
  };
  const halfUser = await createDashboardUser(fx, merchant.id, 'owner');
  const half = await fx.app.inject({
    method: 'POST',
    url: '/dashboard/api/sign-in',
    payload: { email: halfUser.email, password: halfUser.password },
  });
  const invited = await fx.services.merchantUsers.team.invite(
    merchant.id,
    'enrol@target.example',
    'viewer',
    { operator: 'test' },
    { ip: null },
  );
  const accept = await fx.app.inject({
    method: 'POST',
    url: `/dashboard/api/invitations/${invited.link.split('/').pop()}/accept`,
    payload: { password: 'an enrolling password' },
  });
  const own: Record<string, { cookie: string; csrf: string }> = {};
  for (const route of ROUTES.filter((r) => r.endsSession))
    own[`${route.method} ${route.path}`] = await dashboard('owner');
  const partial: Omit<World, 'bearer' | 'otherBearer'> = {
    app: fx.app,
    now: fx.now,
    key,
    otherKey,
    v2Key,
    operatorToken: ALICE,
    consoleSession,
    dashboard: {
      owner: await dashboard('owner'),
      viewer: await dashboard('viewer'),
      half: {
        cookie: cookieOf(half),
        csrf: (JSON.parse(half.body) as { result: { csrfToken: string } }).result.csrfToken,
      },
      enrol: {
        cookie: cookieOf(accept),
        csrf: (JSON.parse(accept.body) as { result: { csrfToken: string } }).result.csrfToken,
      },
      own,
    },
  };
  const bearerOf = async (k: { apiKey: string; apiSecret: string }) => {
    const res = await fx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: signedHeaders({ ...partial, bearer: '', otherBearer: '' }, k, 'POST', '/api/v1/auth/token', ''),
    });
    return (JSON.parse(res.body) as { result: { accessToken: string } }).result.accessToken;
  };
  world = { ...partial, bearer: await bearerOf(key), otherBearer: await bearerOf(otherKey) };
});
afterAll(() => fx.close());

const send = (req: Req): Promise<LightMyRequestResponse> =>
  fx.app.inject({
    method: req.method as 'GET',
    url: req.url,
    headers: req.headers,
    ...(req.payload === undefined ? {} : { payload: req.payload }),
  });

/** What every answer satisfies, whatever was sent. */
function invariants(res: LightMyRequestResponse, req: Req): void {
  expect(res.statusCode, res.body).toBeLessThan(500);
  const requestId = res.headers['x-request-id'];
  expect(typeof requestId).toBe('string');
  for (const secret of [world.key.apiSecret, world.otherKey.apiSecret, world.v2Key.apiSecret, world.operatorToken])
    expect(res.body).not.toContain(secret);
  // Case-insensitive, with or without 0x, and no long piece of it either.
  const lower = res.body.toLowerCase();
  for (const piece of [HOT_HEX, HOT_HEX.slice(0, 32), HOT_HEX.slice(32)]) expect(lower).not.toContain(piece);
  expect(res.body).not.toMatch(/\s+at .+:\d+:\d+|node:internal/);
  expect(res.body).not.toContain('<script>');
  if (res.statusCode >= 400 && req.method !== 'HEAD') {
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body: unknown = JSON.parse(res.body);
    expect(Value.Check(ErrorEnvelope, body), res.body).toBe(true);
    expect((body as ErrorEnvelope).error.requestId).toBe(requestId);
  }
}

function check(res: LightMyRequestResponse, expected: Expect, route: RouteLine): void {
  if (expected === 'any') return;
  if (expected === 'accepted') {
    expect([401, 403, 429], res.body).not.toContain(res.statusCode);
    return;
  }
  if (expected === 'refused') {
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    return;
  }
  expect(res.statusCode, res.body).toBe(expected.status);
  if (res.body !== '') expect((JSON.parse(res.body) as ErrorEnvelope).error.code).toBe(expected.code);
  if (route.side !== 'public' && (expected.status === 401 || expected.status === 403))
    expect(res.headers['cache-control']).toBe('no-store');
}

describe('the route table covers every documented route', () => {
  it('each path and method of /openapi.json has its line', async () => {
    const doc = JSON.parse((await fx.app.inject({ method: 'GET', url: '/openapi.json' })).body) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((m) => m !== 'head')
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    const lines = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(documented.filter((d) => !lines.includes(d))).toEqual([]);
    expect(documented.length).toBeGreaterThanOrEqual(35);
  });
});

describe.each(ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  it('baseline: a legitimate request is not refused as unauthenticated', async () => {
    const req = validRequest(world, route);
    const res = await send(req);
    invariants(res, req);
    expect([401, 403, 429], res.body).not.toContain(res.statusCode);
  });

  for (const attack of ATTACKS.filter((a) => a.applies(route))) {
    it(attack.name, async () => {
      const req = attack.build(validRequest(world, route), world, route);
      const res = await send(req);
      invariants(res, req);
      check(res, typeof attack.expect === 'function' ? attack.expect(route) : attack.expect, route);
    });
  }
});
