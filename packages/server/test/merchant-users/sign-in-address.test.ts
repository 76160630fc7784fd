import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_FAILURES } from '../../src/features/merchant-users/sign-in-limit.js';
import { totpCode } from '../../src/features/merchant-users/totp.js';
import { LOCK_AFTER, LOCK_MS } from '../../src/features/merchant-users/users.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { createAdminFixture, type AdminFixture } from '../http-helpers/admin-fixture.js';
import { cookieOf, createDashboardUser } from '../http-helpers/dashboard-session.js';

/**
 * One client address guessing a dashboard password is turned away (429 RATE_LIMITED) before it
 * can lock the account for its owner (issue 42, item 7), on both stores: in sequence, in a burst
 * sent at once, and slowly over several lock windows; the owner signs in from elsewhere
 * throughout. Guesses from several addresses still lock it, and a reset link lifts that lock.
 */
const D = '/dashboard/api';

describe.each(DIALECTS)('sign-in limited per address on %s', (dialect: Dialect) => {
  let fx: AdminFixture;
  let merchantId: string;
  beforeAll(async () => {
    fx = await createAdminFixture(dialect);
    merchantId = (await fx.services.admin.createMerchant('Lockout Shop', { operator: 'test' })).id;
  });
  afterAll(() => fx.close());

  const codeOf = (res: LightMyRequestResponse) => (JSON.parse(res.body) as { error?: { code: string } }).error?.code;
  const signIn = (email: string, password: string, remoteAddress: string) =>
    fx.app.inject({ method: 'POST', url: `${D}/sign-in`, payload: { email, password }, remoteAddress });
  const lockedUntil = async (userId: string) =>
    (
      await fx.services.store.db
        .selectFrom('merchant_users')
        .select('locked_until')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow()
    ).locked_until;
  const actions = async (userId: string) =>
    (
      await fx.services.store.db
        .selectFrom('merchant_security_log')
        .select('action')
        .where('user_id', '=', userId)
        .execute()
    ).map((r) => r.action);
  /** The owner, from an address of its own, gets through the password step. */
  const ownerGetsIn = async (user: { email: string; password: string }, from = '192.0.2.200') => {
    const res = await signIn(user.email, user.password, from);
    expect(res.statusCode, res.body).toBe(200);
  };

  it(`one address: ${ADDRESS_FAILURES} failures, then 429 RATE_LIMITED with Retry-After; the account is not locked`, async () => {
    expect(ADDRESS_FAILURES).toBeLessThan(LOCK_AFTER);
    const user = await createDashboardUser(fx, merchantId);
    const codes: string[] = [];
    for (let i = 0; i < 2 * LOCK_AFTER; i++)
      codes.push(codeOf(await signIn(user.email, `guess number ${i}`, '203.0.113.50'))!);
    expect(codes).toEqual([
      ...Array<string>(ADDRESS_FAILURES).fill('SIGN_IN_FAILED'),
      ...Array<string>(2 * LOCK_AFTER - ADDRESS_FAILURES).fill('RATE_LIMITED'),
    ]);
    const limited = await signIn(user.email, user.password, '203.0.113.50');
    expect([limited.statusCode, codeOf(limited)]).toEqual([429, 'RATE_LIMITED']);
    const retry = Number(limited.headers['retry-after']);
    expect(retry).toBeGreaterThan(LOCK_MS / 1000 - 120);
    expect(retry).toBeLessThanOrEqual(LOCK_MS / 1000);
    expect(JSON.parse(limited.body).message).toMatch(/from your address/);
    expect(await lockedUntil(user.userId)).toBeNull();
    expect(await actions(user.userId)).not.toContain('account.locked');
    await ownerGetsIn(user);
  });

  it('one address sending guesses all at once: at most the limit are evaluated, the account is not locked', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn(user.email, `burst guess ${i}`, '203.0.113.51')),
    );
    const codes = burst.map(codeOf);
    expect(codes.filter((c) => c === 'SIGN_IN_FAILED')).toHaveLength(ADDRESS_FAILURES);
    expect(codes.filter((c) => c === 'RATE_LIMITED')).toHaveLength(12 - ADDRESS_FAILURES);
    expect(await lockedUntil(user.userId)).toBeNull();
    await ownerGetsIn(user);
  });

  it('one address guessing slowly, window after window, never locks the account', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const start = fx.clock.offsetMs;
    try {
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < ADDRESS_FAILURES; i++)
          expect(codeOf(await signIn(user.email, `slow guess ${round}.${i}`, '203.0.113.52'))).toBe('SIGN_IN_FAILED');
        fx.clock.offsetMs += LOCK_MS + 1000;
      }
      expect(await lockedUntil(user.userId)).toBeNull();
      expect(await actions(user.userId)).not.toContain('account.locked');
      await ownerGetsIn(user);
    } finally {
      fx.clock.offsetMs = start;
    }
  });

  it('the TOTP step is limited per address too (the password known, the codes guessed)', async () => {
    const user = await createDashboardUser(fx, merchantId);
    const from = '203.0.113.53';
    const codes: string[] = [];
    for (let i = 0; i < ADDRESS_FAILURES + 2; i++) {
      const step1 = await signIn(user.email, user.password, from);
      expect(step1.statusCode, step1.body).toBe(200);
      const res = await fx.app.inject({
        method: 'POST',
        url: `${D}/sign-in/totp`,
        headers: { cookie: cookieOf(step1), 'x-csrf-token': JSON.parse(step1.body).result.csrfToken },
        payload: { code: String((Number(totpCode(user.totpSecret, fx.now())) + 1) % 1_000_000).padStart(6, '0') },
        remoteAddress: from,
      });
      codes.push(codeOf(res)!);
    }
    expect(codes).toEqual([...Array<string>(ADDRESS_FAILURES).fill('TOTP_INVALID'), 'RATE_LIMITED', 'RATE_LIMITED']);
    expect(await lockedUntil(user.userId)).toBeNull();
  });

  it('guesses from several addresses lock the account; a reset link lifts the lock at once', async () => {
    const user = await createDashboardUser(fx, merchantId);
    for (let i = 0; i < LOCK_AFTER; i++)
      expect(codeOf(await signIn(user.email, `spread guess ${i}`, `203.0.113.${60 + i}`))).toBe('SIGN_IN_FAILED');
    const locked = await signIn(user.email, user.password, '192.0.2.201');
    expect([locked.statusCode, codeOf(locked)]).toEqual([429, 'ACCOUNT_LOCKED']);
    expect(await lockedUntil(user.userId)).not.toBeNull();
    const reset = await fx.services.merchantUsers.team.resetLink(
      merchantId,
      { userId: user.userId },
      { operator: 'op' },
      { ip: null },
    );
    const token = reset.link.split('/').pop()!;
    const done = await fx.app.inject({
      method: 'POST',
      url: `${D}/password-reset/${token}`,
      payload: { password: 'a brand new password' },
    });
    expect(done.statusCode, done.body).toBe(200);
    await ownerGetsIn({ email: user.email, password: 'a brand new password' }, '192.0.2.201');
  });
});
