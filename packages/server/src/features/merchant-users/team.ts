import type { SecretBox } from '../../crypto/secret-box.js';
import { HostpayError } from '../../errors.js';
import type { AuditContext } from '../audit/service.js';
import { newId } from '../../store/ids.js';
import type { Db, Store } from '../../store/store.js';
import { hashPassword } from './passwords.js';
import type { Role } from './roles.js';
import { newTotpSecret, otpauthUri } from './totp.js';
import { normaliseEmail, type Actor } from './users.js';
import { type Issuer, linkInvalid, teamLinks } from './team-links.js';
import { emailField } from '../../http/email-field.js';

export interface TeamDeps {
  store: Store;
  box: SecretBox;
  now: () => number;
  publicBaseUrl: () => string;
}

const conflict = (message: string) => new HostpayError('TEAM_CONFLICT', message);
const notFound = (what: string) => new HostpayError('NOT_FOUND', `no such ${what} in your team: reload the team list`);

/**
 * The team: invitations (the first owner's by an operator, the rest by owners and admins),
 * password-reset links, roles and removal. Links are one-time tokens of 32 random bytes; only
 * their SHA-256 is kept. The link is mailed (features/mail) and shown (or printed by the CLI) once.
 */
export function team({ store, box, now, publicBaseUrl }: TeamDeps) {
  const db = store.db;
  const { iso, log, liveLink, useLink, issue } = teamLinks({ store, box, now, publicBaseUrl });

  const userOf = (trx: Db, merchantId: string, userId: string) =>
    trx
      .selectFrom('merchant_users')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('id', '=', userId)
      .executeTakeFirst();

  async function ownerCount(trx: Db, merchantId: string): Promise<number> {
    const row = await trx
      .selectFrom('merchant_users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('merchant_id', '=', merchantId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The live invitations of an email to a merchant's team. */
  const pendingInvitations = (merchantId: string, email: string) =>
    db
      .selectFrom('merchant_user_links')
      .select('id')
      .where('merchant_id', '=', merchantId)
      .where('kind', '=', 'invitation')
      .where('email', '=', email)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', iso())
      .execute();

  const api = {
    /** An invitation to join the merchant's team with `role`; refused when the email is already a user or invited. */
    async invite(
      merchantId: string,
      emailGiven: string,
      role: Role,
      issuer: Issuer,
      actor: Actor,
      audit?: AuditContext,
    ) {
      const merchant = await db.selectFrom('merchants').select('id').where('id', '=', merchantId).executeTakeFirst();
      if (merchant === undefined) throw new HostpayError('NOT_FOUND', `no merchant \`${merchantId}\`: check the id`);
      const email = normaliseEmail(emailField('email', emailGiven));
      const user = await db
        .selectFrom('merchant_users')
        .select('id')
        .where('merchant_id', '=', merchantId)
        .where('email', '=', email)
        .executeTakeFirst();
      if (user !== undefined) throw conflict(`${email} is already a member of this team`);
      if ((await pendingInvitations(merchantId, email)).length > 0)
        throw conflict(`${email} has a pending invitation: revoke it first to send a new one`);
      return issue('invitation', merchantId, email, role, null, issuer, actor, audit);
    },

    /**
     * A fresh invitation for an email, any pending one revoked first (each revocation in the
     * security log): for a link that was shown once and is gone, as the demo's at each start.
     */
    async renewInvitation(merchantId: string, emailGiven: string, role: Role, issuer: Issuer, actor: Actor) {
      for (const link of await pendingInvitations(merchantId, normaliseEmail(emailGiven)))
        await api.revokeInvitation(merchantId, link.id, issuer, actor);
      return api.invite(merchantId, emailGiven, role, issuer, actor);
    },

    async invitation(token: string) {
      const row = await liveLink(token, 'invitation');
      return { email: row.email, role: row.role as Role, merchantName: row.merchant_name, expiresAt: row.expires_at };
    },

    /** Accepting: the user is created with this password and a TOTP secret to enrol (shown once). */
    async accept(token: string, password: string, actor: Actor) {
      const hashed = await hashPassword(password);
      const secret = newTotpSecret();
      const userId = newId('usr');
      const row = await store.writeTransaction(async (trx) => {
        const link = await liveLink(token, 'invitation', trx);
        await useLink(trx, link.id);
        const taken = await trx
          .selectFrom('merchant_users')
          .select('id')
          .where('merchant_id', '=', link.merchant_id)
          .where('email', '=', link.email)
          .executeTakeFirst();
        if (taken !== undefined) throw linkInvalid();
        await trx
          .insertInto('merchant_users')
          .values({
            id: userId,
            merchant_id: link.merchant_id,
            email: link.email,
            role: link.role as Role,
            password_hash: hashed,
            totp_secret_sealed: box.seal(secret, userId),
            totp_confirmed: 0,
            totp_last_step: null,
            failed_sign_ins: 0,
            locked_until: null,
            created_at: iso(),
            updated_at: iso(),
            last_sign_in_at: null,
          })
          .execute();
        await log(trx, link.merchant_id, { userId, email: link.email }, 'invitation.accepted', actor, {
          role: link.role,
        });
        return link;
      });
      return { userId, totpSecret: secret, otpauthUri: otpauthUri(secret, row.email) };
    },

    /**
     * A user created enrolled, with no invitation (tests and the demo): the password and a new
     * TOTP secret, returned once. Not reachable over HTTP.
     */
    async createEnrolled(merchantId: string, emailGiven: string, role: Role, password: string) {
      const hashed = await hashPassword(password);
      const secret = newTotpSecret();
      const userId = newId('usr');
      await db
        .insertInto('merchant_users')
        .values({
          id: userId,
          merchant_id: merchantId,
          email: normaliseEmail(emailGiven),
          role,
          password_hash: hashed,
          totp_secret_sealed: box.seal(secret, userId),
          totp_confirmed: 1,
          totp_last_step: null,
          failed_sign_ins: 0,
          locked_until: null,
          created_at: iso(),
          updated_at: iso(),
          last_sign_in_at: null,
        })
        .execute();
      return { userId, totpSecret: secret };
    },

    async revokeInvitation(merchantId: string, id: string, issuer: Issuer, actor: Actor): Promise<void> {
      await store.writeTransaction(async (trx) => {
        const res = await trx
          .updateTable('merchant_user_links')
          .set({ revoked_at: iso() })
          .where('id', '=', id)
          .where('merchant_id', '=', merchantId)
          .where('kind', '=', 'invitation')
          .where('used_at', 'is', null)
          .where('revoked_at', 'is', null)
          .returning('email')
          .executeTakeFirst();
        if (res === undefined) throw notFound('pending invitation');
        await log(trx, merchantId, issuer, 'invitation.revoked', actor, { email: res.email });
      });
    },

    /** A one-time password-reset link for a member (by id or email). */
    async resetLink(
      merchantId: string,
      who: { userId?: string; email?: string },
      issuer: Issuer,
      actor: Actor,
      audit?: AuditContext,
    ) {
      let q = db.selectFrom('merchant_users').selectAll().where('merchant_id', '=', merchantId);
      q =
        who.userId !== undefined
          ? q.where('id', '=', who.userId)
          : q.where('email', '=', normaliseEmail(who.email ?? ''));
      const u = await q.executeTakeFirst();
      if (u === undefined) throw notFound('user');
      return issue('reset', merchantId, u.email, u.role, u.id, issuer, actor, audit);
    },

    /**
     * "Forgot password": a reset link mailed to every account of the email (one per merchant),
     * by the account itself; nothing when there is none (the caller answers the same), and no
     * second link within a minute of the last one.
     */
    async requestReset(emailGiven: string, actor: Actor): Promise<void> {
      const email = normaliseEmail(emailField('email', emailGiven));
      const users = await db.selectFrom('merchant_users').selectAll().where('email', '=', email).execute();
      for (const u of users) {
        const recent = await db
          .selectFrom('merchant_user_links')
          .select('id')
          .where('user_id', '=', u.id)
          .where('kind', '=', 'reset')
          .where('created_at', '>', iso(now() - 60_000))
          .executeTakeFirst();
        if (recent !== undefined) continue;
        await issue('reset', u.merchant_id, u.email, u.role, u.id, { userId: u.id, email: u.email }, actor);
      }
    },

    async resetLinkInfo(token: string) {
      const row = await liveLink(token, 'reset');
      return { email: row.email, merchantName: row.merchant_name, expiresAt: row.expires_at };
    },

    /** Sets the new password, lifts a lock and ends every session of the user. */
    async resetPassword(token: string, password: string, actor: Actor): Promise<void> {
      const hashed = await hashPassword(password);
      await store.writeTransaction(async (trx) => {
        const link = await liveLink(token, 'reset', trx);
        await useLink(trx, link.id);
        const res = await trx
          .updateTable('merchant_users')
          .set({ password_hash: hashed, failed_sign_ins: 0, locked_until: null, updated_at: iso() })
          .where('id', '=', link.user_id!)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) throw linkInvalid();
        await trx.deleteFrom('merchant_sessions').where('user_id', '=', link.user_id!).execute();
        await log(trx, link.merchant_id, { userId: link.user_id!, email: link.email }, 'password.reset', actor, {});
      });
    },

    async list(merchantId: string) {
      const users = await db
        .selectFrom('merchant_users')
        .select(['id', 'email', 'role', 'created_at', 'last_sign_in_at'])
        .where('merchant_id', '=', merchantId)
        .orderBy('created_at')
        .execute();
      const invitations = await db
        .selectFrom('merchant_user_links')
        .select(['id', 'email', 'role', 'expires_at'])
        .where('merchant_id', '=', merchantId)
        .where('kind', '=', 'invitation')
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', iso())
        .orderBy('created_at')
        .execute();
      return {
        users: users.map((u) => ({
          id: u.id,
          email: u.email,
          role: u.role,
          createdAt: u.created_at,
          lastSignInAt: u.last_sign_in_at,
        })),
        invitations: invitations.map((i) => ({
          id: i.id,
          email: i.email,
          role: i.role as Role,
          expiresAt: i.expires_at,
        })),
      };
    },

    /** A new role; the last owner cannot be demoted. Acts at once: sessions read the role on every request. */
    async changeRole(merchantId: string, userId: string, role: Role, issuer: Issuer, actor: Actor) {
      return store.writeTransaction(async (trx) => {
        const u = await userOf(trx, merchantId, userId);
        if (u === undefined) throw notFound('user');
        if (u.role === 'owner' && role !== 'owner' && (await ownerCount(trx, merchantId)) <= 1)
          throw conflict('this is the last owner: make another member owner first');
        await trx.updateTable('merchant_users').set({ role, updated_at: iso() }).where('id', '=', u.id).execute();
        await log(trx, merchantId, issuer, 'role.changed', actor, { email: u.email, from: u.role, to: role });
        return { id: u.id, email: u.email, role, createdAt: u.created_at, lastSignInAt: u.last_sign_in_at };
      });
    },

    /** Removes a member (and so its sessions and recovery codes); not the last owner. */
    async remove(merchantId: string, userId: string, issuer: Issuer, actor: Actor): Promise<void> {
      await store.writeTransaction(async (trx) => {
        const u = await userOf(trx, merchantId, userId);
        if (u === undefined) throw notFound('user');
        if (u.role === 'owner' && (await ownerCount(trx, merchantId)) <= 1)
          throw conflict('this is the last owner: make another member owner first');
        await trx.deleteFrom('merchant_sessions').where('user_id', '=', u.id).execute();
        await trx.deleteFrom('merchant_user_recovery_codes').where('user_id', '=', u.id).execute();
        await trx.deleteFrom('merchant_users').where('id', '=', u.id).execute();
        await log(trx, merchantId, issuer, 'user.removed', actor, { email: u.email, role: u.role });
      });
    },
  };
  return api;
}

export type Team = ReturnType<typeof team>;
