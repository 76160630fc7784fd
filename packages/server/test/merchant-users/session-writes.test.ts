import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/route-list.js';
import { configureChains } from '../http-helpers/checkouts.js';
import {
  cookieOf,
  createDashboardUser,
  dashboardSession,
  type DashboardSession,
} from '../http-helpers/dashboard-session.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { merchantHeaders } from '../http-helpers/requests.js';

/**
 * What a session may write, walked over every write route the app registers under /api/v1/cp and
 * /dashboard/api (read from the app, so a new route is covered without a line here): without the
 * CSRF token nothing happens (403 CSRF_FAILED), a viewer writes nothing (403 on the server,
 * whatever the page shows), and another merchant's objects are out of reach of a session.
 */
let fx: HttpFixture;
let owner: DashboardSession;
let viewer: DashboardSession;
let half: { totp: Record<string, string>; enrol: Record<string, string> };

beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
  await configureChains(fx.services);
  owner = await dashboardSession(fx, fx.demo.merchantId, 'owner');
  viewer = await dashboardSession(fx, fx.demo.merchantId, 'viewer');
  const user = await createDashboardUser(fx, fx.demo.merchantId);
  const signIn = await fx.app.inject({
    method: 'POST',
    url: '/dashboard/api/sign-in',
    payload: { email: user.email, password: user.password },
  });
  const invited = await fx.services.merchantUsers.team.invite(
    fx.demo.merchantId,
    'half@shop.example',
    'viewer',
    { operator: 'test' },
    { ip: null },
  );
  const accept = await fx.app.inject({
    method: 'POST',
    url: `/dashboard/api/invitations/${invited.link.split('/').pop()}/accept`,
    payload: { password: 'a half enrolled user' },
  });
  half = { totp: { cookie: cookieOf(signIn) }, enrol: { cookie: cookieOf(accept) } };
});
afterAll(() => fx.close());

/** Routes any caller reaches without a session (their own capability: a password, a link token). */
const SESSIONLESS = [
  'POST /dashboard/api/sign-in',
  'POST /dashboard/api/invitations/:token/accept',
  'POST /dashboard/api/password-reset/:token',
  // "Forgot password": an email, no session (test/mail/mail.test.ts).
  'POST /dashboard/api/password-reset-requests',
];
/** Half-session routes, and the stage their session is at. */
const HALF: Record<string, 'totp' | 'enrol'> = {
  'POST /dashboard/api/sign-in/totp': 'totp',
  'POST /dashboard/api/totp/confirm': 'enrol',
};
/** Session writes every role makes: its own sign-out, password and notifications. */
const ANY_ROLE = [
  'PATCH /dashboard/api/notifications',
  'POST /dashboard/api/sign-out',
  'POST /dashboard/api/sign-out-everywhere',
  'POST /dashboard/api/password',
];

const writes = () =>
  [
    ...new Set(
      registeredRoutes(fx.app)
        .filter((r) => r.url.startsWith('/api/v1/cp/') || r.url.startsWith('/dashboard/api/'))
        .filter((r) => !['GET', 'HEAD', 'OPTIONS'].includes(r.method))
        .map((r) => `${r.method} ${r.url}`),
    ),
  ]
    .filter((r) => !SESSIONLESS.includes(r))
    .sort();

const concrete = (url: string, ids: Record<string, string> = {}) =>
  url.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? `${name}_x`);

/** Every table's rows but the sessions' (a request marks its session used), as one digest. */
async function stateDigest(): Promise<string> {
  const db = fx.services.store.db;
  const { rows } = await sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' order by name`.execute(db);
  const hash = createHash('sha256');
  for (const { name } of rows) {
    if (name === 'merchant_sessions' || name.startsWith('sqlite_')) continue;
    const content = await sql.raw(`select * from "${name}" order by 1`).execute(db);
    hash.update(`${name}:${JSON.stringify(content.rows)}\n`);
  }
  return hash.digest('hex');
}

const inject = (method: string, url: string, headers: Record<string, string>, body = '{}') =>
  fx.app.inject({
    method: method as 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: body,
  });
const codeOf = (body: string) => (JSON.parse(body) as { error?: { code: string } }).error?.code;

describe('every write made with a session', () => {
  it('covers the routes it should (a route that escapes the walk fails here)', () => {
    const all = writes();
    expect(all.length).toBeGreaterThan(25);
    for (const r of ['POST /api/v1/cp/psp/hosted-pay', 'POST /dashboard/api/team/invitations', ...Object.keys(HALF)])
      expect(all).toContain(r);
  });

  it('without x-csrf-token: 403 CSRF_FAILED and nothing changes', async () => {
    const before = await stateDigest();
    const refused: string[] = [];
    for (const route of writes()) {
      const [method, url] = route.split(' ') as [string, string];
      const stage = HALF[route];
      const cookie = stage === undefined ? owner.cookie : half[stage].cookie!;
      for (const csrf of [undefined, 'forged-token', viewer.csrfToken]) {
        const res = await inject(method, concrete(url), {
          cookie,
          ...(csrf === undefined ? {} : { 'x-csrf-token': csrf }),
        });
        if (res.statusCode !== 403 || codeOf(res.body) !== 'CSRF_FAILED')
          refused.push(`${route} (${csrf}): ${res.statusCode} ${res.body}`);
      }
    }
    expect(refused).toEqual([]);
    expect(await stateDigest()).toBe(before);
    // And the owner is still signed in: the forged writes ended nothing.
    expect(
      (await fx.app.inject({ method: 'GET', url: '/dashboard/api/session', headers: owner.headers() })).statusCode,
    ).toBe(200);
  });

  it("a viewer's write is refused by the server on every write route, and nothing changes", async () => {
    const before = await stateDigest();
    const wrong: string[] = [];
    for (const route of writes().filter((r) => HALF[r] === undefined && !ANY_ROLE.includes(r))) {
      const [method, url] = route.split(' ') as [string, string];
      const res = await inject(method, concrete(url), viewer.headers());
      const expected = url.startsWith('/api/v1/cp/') ? 'SCOPE_MISSING' : 'ROLE_FORBIDDEN';
      if (res.statusCode !== 403 || codeOf(res.body) !== expected)
        wrong.push(`${route}: ${res.statusCode} ${res.body}`);
    }
    expect(wrong).toEqual([]);
    expect(await stateDigest()).toBe(before);
  });
});

describe("another merchant's objects are out of reach of a session", () => {
  it('every /api/v1/cp route with an id answers 4xx for them, changes nothing, and lists never show them', async () => {
    // Merchant A (the demo merchant) owns the objects; the session is of merchant B.
    const a = fx.demo.merchantId;
    const checkout = (await fx.services.checkouts.create(a, {
      amount: '10',
      currency: 'USDT',
    } as never)) as unknown as { id: string };
    const endpoint = await fx.services.webhooks.endpoints.create(a, { url: 'http://127.0.0.1:9/hooks' });
    const destination = await fx.services.payouts.addDestination(a, {
      chain: 'TRON',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    const event = await fx.services.store.db
      .selectFrom('events')
      .select('id')
      .where('merchant_id', '=', a)
      .executeTakeFirstOrThrow();
    const theirs = [checkout.id, endpoint.id, destination.id, event.id];
    const b = await fx.createMerchant('Other Shop');
    const intruder = await dashboardSession(fx, b, 'owner');
    const idFor = (url: string): string =>
      url.includes('/hosted-pay/')
        ? checkout.id
        : url.includes('/webhook-endpoints/')
          ? endpoint.id
          : url.includes('/payout-destinations/')
            ? destination.id
            : url.includes('/events/')
              ? event.id
              : checkout.id;
    const routes = [
      ...new Set(
        registeredRoutes(fx.app)
          .filter((r) => r.url.startsWith('/api/v1/cp/') && r.method !== 'HEAD')
          .map((r) => `${r.method} ${r.url}`),
      ),
    ];
    const before = await stateDigest();
    const reached: string[] = [];
    for (const route of routes) {
      const [method, url] = route.split(' ') as [string, string];
      const target = concrete(url, { id: idFor(url) });
      const res =
        method === 'GET'
          ? await fx.app.inject({
              method: 'GET',
              url: target.includes('/stream') ? `${target}?maxSeconds=0` : target,
              headers: intruder.headers(),
            })
          : await inject(method, target, intruder.headers());
      if (url.includes(':id') && res.statusCode < 400) reached.push(`${route}: ${res.statusCode}`);
      // A refusal may echo the id asked for; an answer must never carry one of theirs.
      if (res.statusCode < 400)
        for (const id of theirs) if (res.body.includes(id)) reached.push(`${route} shows ${id}`);
    }
    expect(reached).toEqual([]);
    expect(await stateDigest()).toBe(before);
    // Asking for merchant A by name is refused too.
    const named = await fx.app.inject({
      method: 'GET',
      url: `/api/v1/cp/psp/hosted-pay?merchantId=${a}`,
      headers: intruder.headers(),
    });
    expect([named.statusCode, codeOf(named.body)]).toEqual([403, 'MERCHANT_FORBIDDEN']);
    // The same requests made by A's own owner do reach them (the walk above is not vacuous).
    const own = await fx.app.inject({
      method: 'GET',
      url: `/api/v1/cp/psp/hosted-pay/${checkout.id}`,
      headers: owner.headers(),
    });
    expect(own.statusCode, own.body).toBe(200);
  });
});

describe('the signed path does not look at sessions', () => {
  it('a signed request with a session cookie beside it never asks the session store; a session request does', async () => {
    let asked = 0;
    const users = fx.services.merchantUsers;
    const app = await fx.buildApp({
      features: {
        ...fx.services,
        merchantUsers: {
          ...users,
          forApp(idleMs, now) {
            const made = users.forApp(idleMs, now);
            const principal: typeof made.sessions.principal = (id) => {
              asked++;
              return made.sessions.principal(id);
            };
            return { ...made, sessions: { ...made.sessions, principal } };
          },
        },
      },
    });
    const signed = await app.inject({
      method: 'GET',
      url: '/api/v1/cp/psp/hosted-pay',
      headers: {
        ...(await merchantHeaders(fx, fx.demo, undefined, { method: 'GET', url: '/api/v1/cp/psp/hosted-pay' })),
        cookie: viewer.cookie,
      },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(asked).toBe(0);
    const bySession = await app.inject({ method: 'GET', url: '/api/v1/cp/psp/hosted-pay', headers: viewer.headers() });
    expect(bySession.statusCode, bySession.body).toBe(200);
    expect(asked).toBe(1);
  });
});
