import { createHash, randomBytes } from 'node:crypto';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { Db, Store } from '../../store/store.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { type AuditContext, recordAudit } from '../audit/service.js';
import { enqueueMail } from '../mail/enqueue.js';
import type { Role } from './roles.js';
import { recordSecurity, type SecurityEntry } from './security-log.js';
import type { Actor } from './users.js';

/** How long an invitation link and a password-reset link live. */
export const INVITATION_MS = 7 * 24 * 3600 * 1000;
export const RESET_MS = 24 * 3600 * 1000;

/** Who issues a link or makes a change: a user of the merchant, or an operator. */
export type Issuer = { userId: string; email: string } | { operator: string };

export const sha256hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
export const linkInvalid = () =>
  new HostpayError(
    'LINK_INVALID',
    'this link is unknown, was used already, was revoked or has expired: ask for a new one',
  );

/**
 * The team's one-time links (invitations and password resets) and its security log: a link is
 * 32 random bytes shown once, of which only the SHA-256 is kept.
 */
export function teamLinks({
  store,
  box,
  now,
  publicBaseUrl,
}: {
  store: Store;
  box: Pick<SecretBox, 'seal'>;
  now: () => number;
  publicBaseUrl: () => string;
}) {
  const db = store.db;
  const iso = (ms = now()) => new Date(ms).toISOString();
  const by = (issuer: Issuer) => ('operator' in issuer ? `operator:${issuer.operator}` : `user:${issuer.userId}`);
  const log = (
    trx: Db,
    merchantId: string,
    issuer: Issuer,
    action: SecurityEntry['action'],
    actor: Actor,
    details: Record<string, unknown>,
  ) =>
    recordSecurity(trx, iso(), {
      merchantId,
      userId: 'operator' in issuer ? null : issuer.userId,
      userEmail: 'operator' in issuer ? null : issuer.email,
      action,
      ip: actor.ip,
      details: 'operator' in issuer ? { ...details, operator: issuer.operator } : details,
    });

  /** The live link of this token and kind, or LINK_INVALID. */
  async function liveLink(token: string, kind: 'invitation' | 'reset', trx: Db = db) {
    if (token.length === 0 || token.length > 128) throw linkInvalid();
    const row = await trx
      .selectFrom('merchant_user_links as l')
      .innerJoin('merchants as m', 'm.id', 'l.merchant_id')
      .selectAll('l')
      .select('m.name as merchant_name')
      .where('l.token_hash', '=', sha256hex(token))
      .where('l.kind', '=', kind)
      .executeTakeFirst();
    if (row === undefined || row.used_at !== null || row.revoked_at !== null || Date.parse(row.expires_at) <= now())
      throw linkInvalid();
    return row;
  }

  /** Marks the link used, exactly once (a second use in a race finds nothing to update). */
  async function useLink(trx: Db, id: string): Promise<void> {
    const res = await trx
      .updateTable('merchant_user_links')
      .set({ used_at: iso() })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw linkInvalid();
  }

  async function issue(
    kind: 'invitation' | 'reset',
    merchantId: string,
    email: string,
    role: Role,
    userId: string | null,
    issuer: Issuer,
    actor: Actor,
    audit?: AuditContext,
  ) {
    const token = randomBytes(32).toString('base64url');
    const id = newId(kind === 'invitation' ? 'inv' : 'rst');
    const expiresAt = iso(now() + (kind === 'invitation' ? INVITATION_MS : RESET_MS));
    const path = kind === 'invitation' ? 'invitation' : 'password-reset';
    const link = `${publicBaseUrl()}/dashboard/${path}/${token}`;
    await store.writeTransaction(async (trx) => {
      await trx
        .insertInto('merchant_user_links')
        .values({
          id,
          kind,
          token_hash: sha256hex(token),
          merchant_id: merchantId,
          email,
          role,
          user_id: userId,
          created_by: by(issuer),
          created_at: iso(),
          expires_at: expiresAt,
          used_at: null,
          revoked_at: null,
        })
        .execute();
      await log(
        trx,
        merchantId,
        issuer,
        kind === 'invitation' ? 'invitation.created' : 'password-reset.issued',
        actor,
        {
          email,
          ...(kind === 'invitation' ? { role } : {}),
        },
      );
      // An operator's link goes into the operators' audit log too, in the same transaction.
      if (audit !== undefined)
        await recordAudit(trx, audit, {
          action: kind === 'invitation' ? 'merchant-user.invite' : 'merchant-user.reset-link',
          objectType: 'merchant_user_link',
          objectId: id,
          before: null,
          after: { merchantId, email, role, expiresAt },
        });
      // The link is mailed too (features/mail: sent, or kept and shown to operators without a
      // transport), in the same transaction: sealed at rest, as it holds the token.
      await enqueueMail(
        trx,
        {
          merchantId,
          kind: kind === 'invitation' ? 'invitation' : 'password-reset',
          to: email,
          toRole: 'user',
          userId,
          data: { link, email, role, expiresAt },
          secret: true,
        },
        iso(),
        box,
      );
    });
    return { id, link, expiresAt };
  }

  return { iso, by, log, liveLink, useLink, issue };
}
