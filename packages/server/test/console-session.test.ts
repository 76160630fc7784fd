import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, errorOf, OPERATOR_TOKENS, resultOf } from './http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * The console's sign-in: an operator token exchanged for an HttpOnly, SameSite=Strict session
 * cookie (Secure and __Host- behind https), the CSRF token on every write made with it, idle
 * timeout, sign-out, the store keeping only a hash, and the operator IP allow-list over the
 * console, its session routes and the admin API alike.
 */
const S = '/console/session';
const IDLE_MINUTES = 30;

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture({ adminTokens: OPERATOR_TOKENS, console: true, consoleIdleMinutes: IDLE_MINUTES });
});
afterAll(() => fx.close());

interface Signed {
  cookie: string;
  csrf: string;
  setCookie: string;
  /** The readable hint beside it (no secret: it spares a page without a session a 401). */
  hint: string;
}
const cookies = (res: LightMyRequestResponse): string[] => [res.headers['set-cookie'] ?? []].flat().map(String);

async function signIn(token = ALICE, headers: Record<string, string> = {}, app = fx.app): Promise<Signed> {
  const res = await app.inject({ method: 'POST', url: S, payload: { token }, headers });
  const result = resultOf<{ operator: string; csrfToken: string }>(res, 201);
  const [setCookie = '', hint = ''] = cookies(res);
  return { cookie: setCookie.split(';')[0]!, csrf: result.csrfToken, setCookie, hint };
}

const adminAs = (
  s: Signed,
  method: string,
  url: string,
  options: { csrf?: string | null; body?: unknown; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> =>
  fx.app.inject({
    method: method as 'GET',
    url: `/admin/v1${url}`,
    headers: {
      cookie: s.cookie,
      ...(options.csrf === null ? {} : { 'x-csrf-token': options.csrf ?? s.csrf }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { payload: JSON.stringify(options.body) }),
    ...(options.remoteAddress === undefined ? {} : { remoteAddress: options.remoteAddress }),
  });

const merchantCount = async () => (await fx.services.store.db.selectFrom('merchants').select('id').execute()).length;

describe('signing in', () => {
  it('sets an HttpOnly, SameSite=Strict cookie for the whole site, not Secure over plain http', async () => {
    const s = await signIn();
    expect(s.setCookie).toMatch(
      /^hostpay_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    expect(s.hint).toBe('hostpay_console_hint=1; Path=/; SameSite=Strict; Max-Age=43200');
    expect(s.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = resultOf<{ operator: string; csrfToken: string; idleExpiresAt: string }>(
      await fx.app.inject({ method: 'GET', url: S, headers: { cookie: s.cookie } }),
    );
    expect(me.operator).toBe('alice');
    expect(me.csrfToken).toBe(s.csrf);
    expect(Date.parse(me.idleExpiresAt) - fx.now()).toBeLessThanOrEqual(IDLE_MINUTES * 60_000);
  });

  it('behind https (a trusted proxy says so) the cookie is Secure and __Host- prefixed', async () => {
    const app = await fx.buildApp({ config: { ...fx.config, trustProxyHops: 1 } });
    const s = await signIn(BOB, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' }, app);
    expect(s.setCookie).toMatch(
      /^__Host-hostpay_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200; Secure$/,
    );
    expect(s.hint).toBe('__Host-hostpay_console_hint=1; Path=/; SameSite=Strict; Max-Age=43200; Secure');
    const res = await app.inject({
      method: 'GET',
      url: '/admin/v1/merchants',
      headers: { cookie: s.cookie, 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.statusCode).toBe(200);
    // The same session id under the plain name (a cookie a sibling subdomain or plain http could
    // plant) is not read behind https: neither by the admin API nor by the console's session route.
    const planted = s.cookie.replace(/^__Host-/, '');
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };
    errorOf(
      await app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: { cookie: planted, ...https } }),
      401,
      'MISSING_HEADER',
    );
    errorOf(await app.inject({ method: 'GET', url: S, headers: { cookie: planted, ...https } }), 401, 'INVALID_TOKEN');
    // And over plain http the __Host- cookie is not read either: each scheme reads its own name.
    errorOf(
      await app.inject({ method: 'GET', url: S, headers: { cookie: s.cookie, 'x-forwarded-for': '203.0.113.9' } }),
      401,
      'INVALID_TOKEN',
    );
  });

  it('refuses a wrong token with 401 INVALID_TOKEN and sets no cookie', async () => {
    const res = await fx.app.inject({ method: 'POST', url: S, payload: { token: `${ALICE}x` } });
    errorOf(res, 401, 'INVALID_TOKEN');
    expect(res.headers['set-cookie']).toBeUndefined();
    errorOf(await fx.app.inject({ method: 'POST', url: S, payload: { token: '' } }), 400, 'INVALID_BODY');
  });

  it('keeps only the SHA-256 of the session id in the store', async () => {
    const s = await signIn();
    const id = s.cookie.split('=')[1]!;
    const rows = await fx.services.store.db.selectFrom('console_sessions').selectAll().execute();
    const hash = createHash('sha256').update(id).digest('hex');
    expect(rows.map((r) => r.id_hash)).toContain(hash);
    expect(JSON.stringify(rows)).not.toContain(id);
  });
});

describe('the session on the operator API', () => {
  it('reads with the cookie alone; writes need the CSRF token, and a refused write changes nothing', async () => {
    const s = await signIn();
    expect(resultOf(await adminAs(s, 'GET', '/merchants', { csrf: null })).items.length).toBeGreaterThan(0);
    const before = await merchantCount();
    errorOf(
      await adminAs(s, 'POST', '/merchants', { csrf: null, body: { name: 'No CSRF' } }),
      403,
      'CSRF_TOKEN_INVALID',
    );
    errorOf(
      await adminAs(s, 'POST', '/merchants', { csrf: 'x'.repeat(43), body: { name: 'Wrong CSRF' } }),
      403,
      'CSRF_TOKEN_INVALID',
    );
    const other = await signIn(BOB);
    errorOf(
      await adminAs(s, 'POST', '/merchants', { csrf: other.csrf, body: { name: "Another session's CSRF" } }),
      403,
      'CSRF_TOKEN_INVALID',
    );
    expect(await merchantCount()).toBe(before);
    const created = resultOf<{ id: string }>(
      await adminAs(s, 'POST', '/merchants', { body: { name: 'Console Shop' } }),
      201,
    );
    const audit = resultOf<{ items: { operator: string }[] }>(await adminAs(s, 'GET', `/audit?objectId=${created.id}`));
    expect(audit.items.map((a) => a.operator)).toEqual(['alice']);
  });

  it('a cookie from nowhere is 401, and the bearer token still works beside sessions', async () => {
    errorOf(
      await fx.app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: { cookie: 'hostpay_console=forged' } }),
      401,
      'INVALID_TOKEN',
    );
    expect(
      (await fx.app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: { authorization: `Bearer ${BOB}` } }))
        .statusCode,
    ).toBe(200);
  });

  it('ends after the idle timeout; activity keeps it alive', async () => {
    const s = await signIn();
    fx.clock.offsetMs += (IDLE_MINUTES - 5) * 60_000;
    expect((await adminAs(s, 'GET', '/merchants')).statusCode).toBe(200);
    fx.clock.offsetMs += (IDLE_MINUTES - 5) * 60_000;
    expect((await adminAs(s, 'GET', '/merchants')).statusCode).toBe(200);
    fx.clock.offsetMs += (IDLE_MINUTES + 1) * 60_000;
    errorOf(await adminAs(s, 'GET', '/merchants'), 401, 'INVALID_TOKEN');
    const res = await fx.app.inject({ method: 'GET', url: S, headers: { cookie: s.cookie } });
    errorOf(res, 401, 'INVALID_TOKEN');
    expect(String(res.headers['set-cookie'])).toContain('Max-Age=0');
  });

  it('sessions idle too long are swept at the next sign-in, whoever signs in', async () => {
    await signIn();
    fx.clock.offsetMs += (IDLE_MINUTES + 1) * 60_000;
    const fresh = await signIn(BOB);
    const rows = await fx.services.store.db.selectFrom('console_sessions').select('id_hash').execute();
    expect(rows.map((r) => r.id_hash)).toEqual([
      createHash('sha256').update(fresh.cookie.split('=')[1]!).digest('hex'),
    ]);
  });

  it('ends when its operator token is changed or removed', async () => {
    const s = await signIn(BOB);
    const rotated = await fx.buildApp({
      operatorTokens: new Map([
        ['alice', ALICE],
        ['bob', `${BOB}-rotated`],
      ]),
    });
    errorOf(
      await rotated.inject({ method: 'GET', url: '/admin/v1/merchants', headers: { cookie: s.cookie } }),
      401,
      'INVALID_TOKEN',
    );
  });
});

describe('signing out', () => {
  it('needs the CSRF token, clears the cookie and ends the session', async () => {
    const s = await signIn();
    errorOf(
      await fx.app.inject({ method: 'DELETE', url: S, headers: { cookie: s.cookie } }),
      403,
      'CSRF_TOKEN_INVALID',
    );
    expect((await adminAs(s, 'GET', '/merchants')).statusCode).toBe(200);
    const out = await fx.app.inject({
      method: 'DELETE',
      url: S,
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf },
    });
    expect(resultOf(out)).toEqual({ signedOut: true });
    expect(cookies(out)).toEqual([
      'hostpay_console=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
      'hostpay_console_hint=1; Path=/; SameSite=Strict; Max-Age=0',
    ]);
    errorOf(await adminAs(s, 'GET', '/merchants'), 401, 'INVALID_TOKEN');
  });
});

describe('the pages', () => {
  it("are served at /console with the payment page's strict CSP; assets by content hash, cached for a year", async () => {
    const page = await fx.app.inject({ method: 'GET', url: '/console' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.body).not.toMatch(/style=|<style/);
    const assets = [...page.body.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)" integrity="(sha384-[^"]+)"/g)];
    expect(assets).toHaveLength(2);
    for (const [, url, integrity] of assets) {
      const res = await fx.app.inject({ method: 'GET', url: url! });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(`sha384-${createHash('sha384').update(res.rawPayload).digest('base64')}`).toBe(integrity);
    }
    errorOf(await fx.app.inject({ method: 'GET', url: '/console/assets/console-nope.js' }), 404, 'NOT_FOUND');
  });

  it('are off unless HOSTPAY_CONSOLE is set, and say how to turn them on', async () => {
    const off = await fx.buildApp({ config: { ...fx.config, console: false } });
    expect(errorOf(await off.inject({ method: 'GET', url: '/console' }), 404, 'NOT_FOUND').message).toContain(
      'HOSTPAY_CONSOLE=true',
    );
    errorOf(await off.inject({ method: 'POST', url: S, payload: { token: ALICE } }), 404, 'NOT_FOUND');
    errorOf(
      await off.inject({ method: 'GET', url: '/admin/v1/merchants', headers: { cookie: (await signIn()).cookie } }),
      401,
      'MISSING_HEADER',
    );
  });
});

describe('the operator IP allow-list (HOSTPAY_ADMIN_IP_ALLOW_LIST)', () => {
  it('applies to the pages, the session routes and the admin API', async () => {
    const app = await fx.buildApp({ config: { ...fx.config, adminIpAllowList: '10.0.0.0/8, 2001:db8::/32' } });
    const outside = { remoteAddress: '192.0.2.7' };
    errorOf(await app.inject({ method: 'GET', url: '/console', ...outside }), 403, 'IP_NOT_ALLOWED');
    errorOf(await app.inject({ method: 'POST', url: S, payload: { token: ALICE }, ...outside }), 403, 'IP_NOT_ALLOWED');
    errorOf(
      await app.inject({
        method: 'GET',
        url: '/admin/v1/merchants',
        headers: { authorization: `Bearer ${ALICE}` },
        ...outside,
      }),
      403,
      'IP_NOT_ALLOWED',
    );
    const inside = { remoteAddress: '10.1.2.3' };
    expect((await app.inject({ method: 'GET', url: '/console', ...inside })).statusCode).toBe(200);
    const signed = await app.inject({ method: 'POST', url: S, payload: { token: ALICE }, ...inside });
    expect(signed.statusCode).toBe(201);
    const cookie = String(signed.headers['set-cookie']).split(';')[0]!;
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/admin/v1/merchants',
          headers: { cookie },
          remoteAddress: '2001:db8::5',
        })
      ).statusCode,
    ).toBe(200);
    errorOf(
      await app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: { cookie }, ...outside }),
      403,
      'IP_NOT_ALLOWED',
    );
  });

  it('refuses a malformed entry at start-up', async () => {
    await expect(fx.buildApp({ config: { ...fx.config, adminIpAllowList: '10.0.0.0/33' } })).rejects.toThrow(
      /HOSTPAY_ADMIN_IP_ALLOW_LIST/,
    );
  });
});
