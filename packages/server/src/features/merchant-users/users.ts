import { createHash, randomBytes } from 'node:crypto';
import { addressBlock } from '../../auth/authenticate.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { HostpayError } from '../../errors.js';
import type { MerchantUserTable } from './tables.js';
import type { Db, Store } from '../../store/store.js';
import { hashPassword, needsRehash, passwordMatches } from './passwords.js';
import { recordSecurity, type SecurityEntry } from './security-log.js';
import { newTotpSecret, otpauthUri, totpStep } from './totp.js';

/**
 * Accounts: sign-in (password, then TOTP or a recovery code), TOTP enrolment, recovery codes,
 * password change. Failures of either factor count on the account: LOCK_AFTER in a row lock it
 * for LOCK_MS (docs/dashboard.md), whatever the address.
 */
export const LOCK_AFTER = 5;
export const LOCK_MS = 15 * 60 * 1000;
export const RECOVERY_CODES = 10;

export type UserRow = MerchantUserTable;

export interface AccountsDeps {
  store: Store;
  box: SecretBox;
  now: () => number;
}

/** Who is acting and from where, for the security log. */
export interface Actor {
  ip: string | null;
}

const sha256hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
/** Recovery codes are typed by hand: case and dashes do not matter. */
const recoveryHash = (code: string) => sha256hex(code.replace(/[\s-]/g, '').toLowerCase());

export const signInFailed = () =>
  new HostpayError('SIGN_IN_FAILED', 'the email and password do not match an account: check both and try again');
export const accountLocked = (untilMs: number, nowMs: number) => {
  const seconds = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  return new HostpayError(
    'ACCOUNT_LOCKED',
    `too many failed sign-ins for this account: try again in ${Math.ceil(seconds / 60)} minute(s), or ask an owner for a password reset link`,
    { retryAfterSeconds: seconds },
    { 'retry-after': String(seconds) },
  );
};
const totpInvalid = () =>
  new HostpayError(
    'TOTP_INVALID',
    'the code is wrong, too old, or was used already: enter the current six-digit code of your authenticator app (or a recovery code)',
  );

export function accounts({ store, box, now }: AccountsDeps) {
  const db = store.db;
  const iso = (ms = now()) => new Date(ms).toISOString();
  const log = (trx: Db, entry: SecurityEntry) => recordSecurity(trx, iso(), entry);
  const entryOf = (u: UserRow, action: SecurityEntry['action'], actor: Actor, details?: Record<string, unknown>) => ({
    merchantId: u.merchant_id,
    userId: u.id,
    userEmail: u.email,
    action,
    ip: actor.ip,
    ...(details === undefined ? {} : { details }),
  });

  const userById = (id: string) => db.selectFrom('merchant_users').selectAll().where('id', '=', id).executeTakeFirst();

  /** A failure of either factor: counted, and the account locked at LOCK_AFTER in a row. */
  async function countFailure(u: UserRow, actor: Actor, action: 'sign-in.failed' | 'totp.failed'): Promise<void> {
    const at = now();
    await store.writeTransaction(async (trx) => {
      const row = await trx
        .updateTable('merchant_users')
        .set((eb) => ({ failed_sign_ins: eb('failed_sign_ins', '+', 1) }))
        .where('id', '=', u.id)
        .returning('failed_sign_ins')
        .executeTakeFirst();
      await log(trx, entryOf(u, action, actor));
      if (row !== undefined && row.failed_sign_ins >= LOCK_AFTER && !(await oneAddress(trx, u.id))) {
        await trx
          .updateTable('merchant_users')
          .set({ failed_sign_ins: 0, locked_until: iso(at + LOCK_MS) })
          .where('id', '=', u.id)
          .execute();
        await log(trx, entryOf(u, 'account.locked', actor, { minutes: LOCK_MS / 60_000 }));
      }
    });
  }

  /**
   * Whether the last LOCK_AFTER failures of the user all came from one client address: that
   * address is held back by its own limit (sign-in-limit.ts) and does not lock the account for
   * everyone, however slowly it guesses (the count in a row never decays on its own). The count
   * stays one short of the lock, so a failure from any other address locks it.
   */
  async function oneAddress(trx: Db, userId: string): Promise<boolean> {
    const last = await trx
      .selectFrom('merchant_security_log')
      .select('ip')
      .where('user_id', '=', userId)
      .where('action', 'in', ['sign-in.failed', 'totp.failed'])
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(LOCK_AFTER)
      .execute();
    const blocks = new Set(last.map((r) => (r.ip === null ? null : addressBlock(r.ip))));
    if (blocks.size !== 1 || blocks.has(null)) return false;
    await trx
      .updateTable('merchant_users')
      .set({ failed_sign_ins: LOCK_AFTER - 1 })
      .where('id', '=', userId)
      .execute();
    return true;
  }

  function checkNotLocked(u: UserRow): void {
    if (u.locked_until !== null && Date.parse(u.locked_until) > now())
      throw accountLocked(Date.parse(u.locked_until), now());
  }

  const openSecret = (u: UserRow) => box.open(u.totp_secret_sealed!, u.id).toString('utf8');

  return {
    userById,

    /**
     * What the email's sign-in lock is counted under, besides the email: a digest of its accounts'
     * password hashes, so a new password (a reset link, a change) starts a fresh count and lifts
     * the lock, as the docs promise. Unknown emails have none: the same work, an empty answer.
     */
    async lockGeneration(email: string): Promise<string> {
      const users = await db
        .selectFrom('merchant_users')
        .select('password_hash')
        .where('email', '=', normaliseEmail(email))
        .orderBy('created_at')
        .limit(5)
        .execute();
      if (users.length === 0) return '';
      return sha256hex(users.map((u) => u.password_hash).join('\n')).slice(0, 16);
    },

    /**
     * The password step. Unknown emails do the same argon2 work (a dummy hash) and get the same
     * answer as a wrong password. Returns the user whose password matched; throws SIGN_IN_FAILED
     * or ACCOUNT_LOCKED (the latter only for an account that exists and is locked: the route
     * locks unknown emails alike, so the answer does not tell them apart).
     */
    async checkPassword(email: string, password: string, actor: Actor): Promise<UserRow> {
      const users = await db
        .selectFrom('merchant_users')
        .selectAll()
        .where('email', '=', normaliseEmail(email))
        .orderBy('created_at')
        .limit(5)
        .execute();
      if (users.length === 0) {
        await passwordMatches(undefined, password);
        throw signInFailed();
      }
      let matched: UserRow | undefined;
      for (const u of users)
        if ((await passwordMatches(u.password_hash, password)) && matched === undefined) matched = u;
      if (matched === undefined) {
        const open = users.filter((u) => u.locked_until === null || Date.parse(u.locked_until) <= now());
        for (const u of open) await countFailure(u, actor, 'sign-in.failed');
        if (open.length === 0) throw accountLocked(Math.min(...users.map((u) => Date.parse(u.locked_until!))), now());
        throw signInFailed();
      }
      checkNotLocked(matched);
      if (needsRehash(matched.password_hash)) {
        const rehashed = await hashPassword(password);
        await db.updateTable('merchant_users').set({ password_hash: rehashed }).where('id', '=', matched.id).execute();
      }
      return matched;
    },

    /**
     * The second step: a TOTP code (refused for its step and every earlier one once accepted) or
     * an unused recovery code (then used up). Both kinds of failure count towards the lock.
     */
    async checkSecondFactor(
      userId: string,
      given: { code?: string; recoveryCode?: string },
      actor: Actor,
    ): Promise<UserRow> {
      const u = await userById(userId);
      if (u === undefined || u.totp_confirmed !== 1) throw totpInvalid();
      checkNotLocked(u);
      let ok = false;
      if (given.code !== undefined) {
        const step = totpStep(openSecret(u), u.email, given.code, now());
        if (step !== undefined) {
          const res = await db
            .updateTable('merchant_users')
            .set({ totp_last_step: step })
            .where('id', '=', u.id)
            .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
            .executeTakeFirst();
          ok = Number(res.numUpdatedRows) === 1;
        }
      } else if (given.recoveryCode !== undefined) {
        ok = await store.writeTransaction(async (trx) => {
          const res = await trx
            .updateTable('merchant_user_recovery_codes')
            .set({ used_at: iso() })
            .where('user_id', '=', u.id)
            .where('code_hash', '=', recoveryHash(given.recoveryCode!))
            .where('used_at', 'is', null)
            .executeTakeFirst();
          if (Number(res.numUpdatedRows) !== 1) return false;
          const left = await trx
            .selectFrom('merchant_user_recovery_codes')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', u.id)
            .where('used_at', 'is', null)
            .executeTakeFirstOrThrow();
          await log(trx, entryOf(u, 'recovery-code.used', actor, { left: Number(left.n) }));
          return true;
        });
      }
      if (!ok) {
        await countFailure(u, actor, 'totp.failed');
        throw totpInvalid();
      }
      await store.writeTransaction(async (trx) => {
        await trx
          .updateTable('merchant_users')
          .set({ failed_sign_ins: 0, locked_until: null, last_sign_in_at: iso() })
          .where('id', '=', u.id)
          .execute();
        await log(trx, entryOf(u, 'sign-in.ok', actor));
      });
      return u;
    },

    /** A new TOTP secret for a user not enrolled yet (sealed at rest), to show once. */
    async startEnrolment(userId: string): Promise<{ totpSecret: string; otpauthUri: string }> {
      const u = await userById(userId);
      if (u === undefined || u.totp_confirmed === 1) throw totpInvalid();
      const secret = newTotpSecret();
      await db
        .updateTable('merchant_users')
        .set({ totp_secret_sealed: box.seal(secret, u.id), updated_at: iso() })
        .where('id', '=', u.id)
        .execute();
      return { totpSecret: secret, otpauthUri: otpauthUri(secret, u.email) };
    },

    /** Enrolment's end: the first code proves the app holds the secret; then the recovery codes, shown once. */
    async confirmEnrolment(
      userId: string,
      code: string,
      actor: Actor,
    ): Promise<{ user: UserRow; recoveryCodes: string[] }> {
      const u = await userById(userId);
      if (u === undefined || u.totp_secret_sealed === null || u.totp_confirmed === 1) throw totpInvalid();
      const step = totpStep(openSecret(u), u.email, code, now());
      if (step === undefined) throw totpInvalid();
      const codes = Array.from({ length: RECOVERY_CODES }, () => {
        const hex = randomBytes(5).toString('hex');
        return `${hex.slice(0, 5)}-${hex.slice(5)}`;
      });
      await store.writeTransaction(async (trx) => {
        await trx
          .updateTable('merchant_users')
          .set({ totp_confirmed: 1, totp_last_step: step, last_sign_in_at: iso(), updated_at: iso() })
          .where('id', '=', u.id)
          .execute();
        await trx.deleteFrom('merchant_user_recovery_codes').where('user_id', '=', u.id).execute();
        await trx
          .insertInto('merchant_user_recovery_codes')
          .values(codes.map((c) => ({ user_id: u.id, code_hash: recoveryHash(c), used_at: null })))
          .execute();
        await log(trx, entryOf(u, 'totp.enrolled', actor));
      });
      return { user: u, recoveryCodes: codes };
    },

    /** Password change: the current password is checked (a wrong one is SIGN_IN_FAILED and counts). */
    async changePassword(userId: string, current: string, next: string, actor: Actor): Promise<void> {
      const u = await userById(userId);
      if (u === undefined) throw signInFailed();
      checkNotLocked(u);
      if (!(await passwordMatches(u.password_hash, current))) {
        await countFailure(u, actor, 'sign-in.failed');
        throw new HostpayError('SIGN_IN_FAILED', 'the current password is not right: type it again');
      }
      const hashed = await hashPassword(next);
      await store.writeTransaction(async (trx) => {
        await trx
          .updateTable('merchant_users')
          .set({ password_hash: hashed, updated_at: iso() })
          .where('id', '=', u.id)
          .execute();
        await log(trx, entryOf(u, 'password.changed', actor));
      });
    },

    /** Records an action of a signed-in user (sign-out, key changes made from the dashboard, …). */
    async record(userId: string, action: SecurityEntry['action'], actor: Actor, details?: Record<string, unknown>) {
      const u = await userById(userId);
      if (u !== undefined) await log(db, entryOf(u, action, actor, details));
    },
  };
}

export type Accounts = ReturnType<typeof accounts>;
