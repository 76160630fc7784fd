import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ARGON2_PARAMS } from '../../src/features/merchant-users/passwords.js';
import { totpCode } from '../../src/features/merchant-users/totp.js';
import { LOCK_AFTER, LOCK_MS } from '../../src/features/merchant-users/users.js';
import { DIALECTS, tempServices, type Dialect } from '../helpers.js';
import type { Services } from '../../src/services.js';

const userRowOf = (services: Services, id: string) =>
  services.store.db.selectFrom('merchant_users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
import { createAdminFixture, type AdminFixture } from '../http-helpers/admin-fixture.js';
import { cookieOf, createDashboardUser, dashboardSession, signInDashboard } from '../http-helpers/dashboard-session.js';

/**
 * Merchant dashboard accounts on both stores (issue 30 item 5): the password hash's parameters,
 * TOTP's window and replay rule, single-use recovery codes, the account lock, a new session id at
 * each sign-in step, idle and absolute expiry, sign-out everywhere, and what the store keeps.
 */
const D = '/dashboard/api';
const IDLE_MINUTES = 30;

describe.each(DIALECTS)('dashboard accounts on %s', (dialect: Dialect) => {
  let fx: AdminFixture;
  let merchantId: string;
  beforeAll(async () => {
    fx = await createAdminFixture(dialect, { dashboardIdleMinutes: IDLE_MINUTES });
    merchantId = (await fx.services.admin.createMerchant('Accounts Shop', { operator: 'test' })).id;
  });
  afterAll(() => fx.close());

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fx.app.inject({ method: 'POST', url, headers, payload: body as object });
  const get = (url: string, headers: Record<string, string> = {}) => fx.app.inject({ method: 'GET', url, headers });
  const codeOf = (res: LightMyRequestResponse) => (JSON.parse(res.body) as { error?: { code: string } }).error?.code;
  const resultOf = (res: LightMyRequestResponse) => (JSON.parse(res.body) as { result: any }).result;
  const userRow = (id: string) =>
    fx.services.store.db.selectFrom('merchant_users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Step 1 only: the half session's headers. */
  const password = async (user: { email: string; password: string }) => {
    const res = await post(`${D}/sign-in`, { email: user.email, password: user.password });
    expect(res.statusCode, res.body).toBe(200);
    return { cookie: cookieOf(res), 'x-csrf-token': resultOf(res).csrfToken as string };
  };
  const securityActions = async (userId: string) =>
    (
      await fx.services.store.db
        .selectFrom('merchant_security_log')
        .select('action')
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute()
    ).map((r) => r.action);

  it('stores the password as argon2id with the documented OWASP parameters', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const stored = (await userRow(user.userId)).password_hash;
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/.exec(stored);
    expect(m, stored).not.toBeNull();
    expect({ memoryCost: Number(m![1]), timeCost: Number(m![2]), parallelism: Number(m![3]) }).toEqual(ARGON2_PARAMS);
    expect(ARGON2_PARAMS).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(stored).not.toContain(user.password);
  });

  it('keeps the TOTP secret sealed, recovery codes and session ids hashed', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const row = await userRow(user.userId);
    expect(row.totp_secret_sealed).not.toContain(user.totpSecret);
    expect(fx.services.box.open(row.totp_secret_sealed!, user.userId).toString()).toBe(user.totpSecret);
    const { cookie } = await signInDashboard(fx, user);
    const id = cookie.split('=')[1]!;
    const sessions = await fx.services.store.db
      .selectFrom('merchant_sessions')
      .select('id_hash')
      .where('user_id', '=', user.userId)
      .execute();
    expect(sessions.map((s) => s.id_hash)).toEqual([createHash('sha256').update(id).digest('hex')]);
  });

  it('TOTP: the step before and after are accepted, two steps off is not, and a code works once', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const at = fx.now();
    // Each code from an address of its own: one address's failures are limited (sign-in-address.test.ts).
    let n = 0;
    const tryCode = async (code: string) =>
      fx.app.inject({
        method: 'POST',
        url: `${D}/sign-in/totp`,
        headers: await password(user),
        payload: { code },
        remoteAddress: `198.51.100.${100 + n++}`,
      });
    // Two steps away (60 s): refused, and refused codes count towards the lock only, nothing else.
    expect(codeOf(await tryCode(totpCode(user.totpSecret, at - 60_000)))).toBe('TOTP_INVALID');
    expect(codeOf(await tryCode(totpCode(user.totpSecret, at + 60_000)))).toBe('TOTP_INVALID');
    // The step before: accepted; the same code again: refused (replay), even within its window.
    const before = totpCode(user.totpSecret, at - 30_000);
    expect((await tryCode(before)).statusCode).toBe(200);
    const replay = await tryCode(before);
    expect([replay.statusCode, codeOf(replay)]).toEqual([401, 'TOTP_INVALID']);
    // The step after: accepted; then the current one (an earlier step) is refused too.
    expect((await tryCode(totpCode(user.totpSecret, at + 30_000))).statusCode).toBe(200);
    expect(codeOf(await tryCode(totpCode(user.totpSecret, at)))).toBe('TOTP_INVALID');
    expect(await securityActions(user.userId)).toContain('totp.failed');
  });

  it('a recovery code signs in once, whatever its case and dashes', async () => {
    const email = `rc-${Date.now()}@shop.example`;
    const invited = await fx.services.merchantUsers.team.invite(
      merchantId,
      email,
      'admin',
      { operator: 'op' },
      { ip: null },
    );
    const accept = await post(`${D}/invitations/${invited.link.split('/').pop()}/accept`, {
      password: 'recovery codes test',
    });
    const enrol = resultOf(accept);
    const confirm = await post(
      `${D}/totp/confirm`,
      { code: totpCode(enrol.totpSecret, fx.now()) },
      { cookie: cookieOf(accept), 'x-csrf-token': enrol.csrfToken },
    );
    expect(confirm.statusCode, confirm.body).toBe(200);
    const codes = resultOf(confirm).recoveryCodes as string[];
    expect(new Set(codes).size).toBe(10);
    const user = { email, password: 'recovery codes test' };
    const code = codes[3]!;
    const first = await post(
      `${D}/sign-in/totp`,
      { recoveryCode: code.toUpperCase().replace('-', '') },
      await password(user),
    );
    expect(first.statusCode, first.body).toBe(200);
    const again = await post(`${D}/sign-in/totp`, { recoveryCode: code }, await password(user));
    expect([again.statusCode, codeOf(again)]).toEqual([401, 'TOTP_INVALID']);
    const userId = resultOf(first).user.id as string;
    const log = await fx.services.store.db
      .selectFrom('merchant_security_log')
      .select(['action', 'details'])
      .where('user_id', '=', userId)
      .where('action', '=', 'recovery-code.used')
      .execute();
    expect(log).toEqual([{ action: 'recovery-code.used', details: '{"left":9}' }]);
    const stored = await fx.services.store.db
      .selectFrom('merchant_user_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', userId)
      .execute();
    expect(stored).toHaveLength(10);
    for (const c of codes) expect(JSON.stringify(stored)).not.toContain(c);
  });

  it('an unknown email and a wrong password get the same answer', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const wrong = await post(`${D}/sign-in`, { email: user.email, password: 'not the password' });
    const unknown = await post(`${D}/sign-in`, {
      email: `nobody-${Date.now()}@shop.example`,
      password: 'not the password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    const strip = (r: LightMyRequestResponse) => ({ ...JSON.parse(r.body), error: { code: codeOf(r) } });
    expect(strip(unknown)).toEqual(strip(wrong));
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it(`locks an account after ${LOCK_AFTER} failures from several addresses for ${LOCK_MS / 60_000} minutes, known or unknown email alike`, async () => {
    const user = await createDashboardUser(fx, merchantId);
    const unknown = `ghost-${Date.now()}@shop.example`;
    // One address alone is held back first (sign-in-address.test.ts): the guesses come from several.
    const from = (i: number) => ({
      method: 'POST' as const,
      url: `${D}/sign-in`,
      remoteAddress: `198.51.100.${10 + i}`,
    });
    for (let i = 0; i < LOCK_AFTER; i++) {
      expect(
        codeOf(await fx.app.inject({ ...from(i), payload: { email: user.email, password: `wrong ${i} password` } })),
      ).toBe('SIGN_IN_FAILED');
      expect(
        codeOf(await fx.app.inject({ ...from(i), payload: { email: unknown, password: `wrong ${i} password` } })),
      ).toBe('SIGN_IN_FAILED');
    }
    // Now even the right password is refused, with Retry-After; the unknown email answers the same.
    const locked = await post(`${D}/sign-in`, { email: user.email, password: user.password });
    expect([locked.statusCode, codeOf(locked)]).toEqual([429, 'ACCOUNT_LOCKED']);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(LOCK_MS / 1000);
    expect(codeOf(await post(`${D}/sign-in`, { email: unknown, password: 'whatever it is' }))).toBe('ACCOUNT_LOCKED');
    expect(await securityActions(user.userId)).toEqual([...Array(LOCK_AFTER).fill('sign-in.failed'), 'account.locked']);
    // After the lock, the right password works again.
    fx.clock.offsetMs += LOCK_MS + 1000;
    try {
      const { cookie } = await signInDashboard(fx, user);
      expect((await get(`${D}/session`, { cookie })).statusCode).toBe(200);
    } finally {
      fx.clock.offsetMs -= LOCK_MS + 1000;
    }
  });

  it('each sign-in step hands out a new session id; the earlier ones stop working', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const planted = (await dashboardSession(fx, merchantId)).cookie; // someone else's live session cookie
    const step1 = await post(`${D}/sign-in`, { email: user.email, password: user.password }, { cookie: planted });
    const half = cookieOf(step1);
    expect(half).not.toBe(planted);
    // The half session opens nothing but step 2.
    expect(codeOf(await get(`${D}/session`, { cookie: half }))).toBe('SESSION_REQUIRED');
    expect(codeOf(await get('/api/v1/cp/wallets', { cookie: half }))).toBe('SESSION_REQUIRED');
    const step2 = await post(
      `${D}/sign-in/totp`,
      { code: totpCode(user.totpSecret, fx.now()) },
      { cookie: half, 'x-csrf-token': resultOf(step1).csrfToken },
    );
    const full = cookieOf(step2);
    expect(full).not.toBe(half);
    expect(codeOf(await get(`${D}/session`, { cookie: half }))).toBe('SESSION_REQUIRED');
    expect(resultOf(await get(`${D}/session`, { cookie: full })).user.email).toBe(user.email);
    // The planted cookie was replaced at sign-in: it no longer opens anything.
    expect(codeOf(await get(`${D}/session`, { cookie: planted }))).toBe('SESSION_REQUIRED');
  });

  it('cookies: HttpOnly, SameSite=Strict, Path=/; Secure and __Host- behind https', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const plain = await post(`${D}/sign-in`, { email: user.email, password: user.password });
    const [session, hint] = [plain.headers['set-cookie'] ?? []].flat();
    expect(session).toMatch(/^hp_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=600$/);
    // A half session is no sign-in: the page's hint stays cleared until the second factor.
    expect(hint).toBe('hp_session_hint=1; Path=/; SameSite=Strict; Max-Age=0');
    const app = await fx.buildApp({ config: { ...fx.config, trustProxyHops: 1 } });
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };
    const res = await app.inject({
      method: 'POST',
      url: `${D}/sign-in`,
      headers: https,
      payload: { email: user.email, password: user.password },
    });
    expect([res.headers['set-cookie'] ?? []].flat()[0]).toMatch(
      /^__Host-hp_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=600; Secure$/,
    );
    // Behind https the plain name is not read (a sibling or plain-http page could plant it).
    const id = cookieOf(res).split('=')[1]!;
    const step2 = await app.inject({
      method: 'POST',
      url: `${D}/sign-in/totp`,
      headers: { ...https, cookie: `hp_session=${id}`, 'x-csrf-token': resultOf(res).csrfToken },
      payload: { code: totpCode(user.totpSecret, fx.now()) },
    });
    expect(codeOf(step2)).toBe('SESSION_REQUIRED');
  });

  it(`ends a session after ${IDLE_MINUTES} idle minutes, and 12 hours after sign-in however busy`, async () => {
    const idle = await dashboardSession(fx, merchantId);
    const busy = await dashboardSession(fx, merchantId);
    const start = fx.clock.offsetMs;
    try {
      fx.clock.offsetMs = start + (IDLE_MINUTES - 1) * 60_000;
      expect((await get(`${D}/session`, idle.headers())).statusCode).toBe(200);
      fx.clock.offsetMs = start + (2 * IDLE_MINUTES - 2) * 60_000;
      expect((await get(`${D}/session`, idle.headers())).statusCode).toBe(200);
      fx.clock.offsetMs = start + 3 * IDLE_MINUTES * 60_000;
      expect(codeOf(await get(`${D}/session`, idle.headers()))).toBe('SESSION_REQUIRED');
      // A request every 20 minutes keeps a session alive, up to its absolute end.
      for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
        fx.clock.offsetMs = start + minutes * 60_000;
        expect((await get('/api/v1/cp/wallets', busy.headers())).statusCode, `${minutes} min`).toBe(200);
      }
      fx.clock.offsetMs = start + 12 * 3600_000;
      expect(codeOf(await get('/api/v1/cp/wallets', busy.headers()))).toBe('SESSION_REQUIRED');
    } finally {
      fx.clock.offsetMs = start;
    }
  });

  it('sign out everywhere ends every session of the user, and only theirs', async () => {
    const user = await createDashboardUser(fx, merchantId, 'developer');
    const a = await signInDashboard(fx, user);
    fx.clock.offsetMs += 30_000; // the next TOTP step (a code works once)
    const b = await signInDashboard(fx, user);
    fx.clock.offsetMs -= 30_000;
    const other = await dashboardSession(fx, merchantId);
    const res = await post(`${D}/sign-out-everywhere`, {}, { cookie: a.cookie, 'x-csrf-token': a.csrfToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^hp_session=; .*Max-Age=0/);
    for (const s of [a, b])
      expect(codeOf(await get('/api/v1/cp/wallets', { cookie: s.cookie }))).toBe('SESSION_REQUIRED');
    expect((await get('/api/v1/cp/wallets', other.headers())).statusCode).toBe(200);
    expect(await securityActions(user.userId)).toContain('sign-out.everywhere');
  });

  it('a role change acts at once on the member’s open session', async () => {
    const owner = await dashboardSession(fx, merchantId, 'owner');
    const member = await dashboardSession(fx, merchantId, 'admin');
    const write = () =>
      fx.app.inject({
        method: 'POST',
        url: '/api/v1/cp/payout-destinations',
        headers: { ...member.headers(), 'content-type': 'application/json' },
        payload: '{"chain":"TRON","address":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"}',
      });
    expect(codeOf(await write())).not.toBe('SCOPE_MISSING');
    const patch = await fx.app.inject({
      method: 'PATCH',
      url: `${D}/team/users/${member.userId}`,
      headers: { ...owner.headers(), 'content-type': 'application/json' },
      payload: { role: 'viewer' },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(codeOf(await write())).toBe('SCOPE_MISSING');
    expect(resultOf(await get(`${D}/session`, member.headers())).scopes).toEqual([
      'wallets:read',
      'fees:read',
      'checkout:read',
      'events:read',
      'payouts:read',
      'reports:read',
      'links:read',
      'invoices:read',
    ]);
  });

  it('a password change ends the other sessions; a reset link ends all and lifts a lock', async () => {
    const user = await createDashboardUser(fx, merchantId, 'admin');
    const a = await signInDashboard(fx, user);
    fx.clock.offsetMs += 30_000;
    const b = await signInDashboard(fx, user);
    fx.clock.offsetMs -= 30_000;
    const changed = await post(
      `${D}/password`,
      { currentPassword: user.password, newPassword: 'the second password' },
      { cookie: a.cookie, 'x-csrf-token': a.csrfToken },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await get(`${D}/session`, { cookie: a.cookie })).statusCode).toBe(200);
    expect(codeOf(await get(`${D}/session`, { cookie: b.cookie }))).toBe('SESSION_REQUIRED');
    for (let i = 0; i < LOCK_AFTER; i++)
      await fx.app.inject({
        method: 'POST',
        url: `${D}/sign-in`,
        payload: { email: user.email, password: 'wrong wrong wrong' },
        remoteAddress: `198.51.100.${200 + i}`,
      });
    const reset = await fx.services.merchantUsers.team.resetLink(
      merchantId,
      { userId: user.userId },
      { operator: 'op' },
      { ip: null },
    );
    const token = reset.link.split('/').pop()!;
    expect((await post(`${D}/password-reset/${token}`, { password: 'the third password' })).statusCode).toBe(200);
    expect(codeOf(await get(`${D}/session`, { cookie: a.cookie }))).toBe('SESSION_REQUIRED');
    const userRowAfter = await userRow(user.userId);
    expect(userRowAfter.locked_until).toBeNull();
    expect(await securityActions(user.userId)).toEqual(
      expect.arrayContaining(['password.changed', 'account.locked', 'password.reset']),
    );
  });

  it('a master-key rotation re-seals TOTP secrets; the codes stay the same', async () => {
    const env = await tempServices(dialect);
    try {
      const m = await env.services.admin.createMerchant('Rotation Shop', { operator: 'test' });
      const made = await env.services.merchantUsers.team.createEnrolled(
        m.id,
        'r@shop.example',
        'owner',
        'a long password',
      );
      const oldMaster = readFileSync(`${env.dataDir}/master.key`, 'utf8').trim();
      const newMaster = randomBytes(32).toString('base64');
      await env.services.close();
      const rotated = await env.reopen({ masterKey: newMaster, masterKeyPrevious: oldMaster });
      const before = (await userRowOf(rotated, made.userId)).totp_secret_sealed!;
      expect((await rotated.admin.rotateMasterKey({ operator: 'test' })).resealed).toBeGreaterThanOrEqual(1);
      await rotated.close();
      env.services = await env.reopen({ masterKey: newMaster });
      const after = (await userRowOf(env.services, made.userId)).totp_secret_sealed!;
      expect(after).not.toBe(before);
      expect(env.services.box.open(after, made.userId).toString()).toBe(made.totpSecret);
    } finally {
      await env.cleanup();
    }
  });
});
