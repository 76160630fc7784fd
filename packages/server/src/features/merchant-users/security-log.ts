import { page, type Page, type PageRequest } from '../../admin/pagination.js';
import { newId } from '../../store/ids.js';
import type { Db } from '../../store/store.js';
import { securityNotice } from '../mail/notify.js';

/** What the security log records (docs/dashboard.md lists them). */
export type SecurityAction =
  | 'sign-in.ok'
  | 'sign-in.failed'
  | 'account.locked'
  | 'totp.enrolled'
  | 'totp.failed'
  | 'recovery-code.used'
  | 'password.changed'
  | 'password.reset'
  | 'password-reset.issued'
  | 'invitation.created'
  | 'invitation.accepted'
  | 'invitation.revoked'
  | 'role.changed'
  | 'user.removed'
  | 'sign-out'
  | 'sign-out.everywhere'
  | 'key.created'
  | 'key.rolled'
  | 'key.revoked'
  | 'settings.changed';

export interface SecurityEntry {
  merchantId: string;
  /** Who did it (or whom it was tried on); null for an operator's action. */
  userId: string | null;
  userEmail: string | null;
  action: SecurityAction;
  ip: string | null;
  details?: Record<string, unknown>;
}

export interface SecurityLogView {
  id: string;
  at: string;
  userEmail: string | null;
  action: string;
  ip: string | null;
  details: Record<string, unknown> | null;
}

/**
 * Records one security-relevant action of a merchant's team (in the caller's transaction when
 * given one), with the security notice mail it owes (features/mail/notify.ts: a password or
 * two-factor change, an API key created, rolled or revoked), written in the same transaction.
 */
export async function recordSecurity(db: Db, at: string, entry: SecurityEntry): Promise<void> {
  await db
    .insertInto('merchant_security_log')
    .values({
      id: newId('sec'),
      merchant_id: entry.merchantId,
      at,
      user_id: entry.userId,
      user_email: entry.userEmail,
      action: entry.action,
      ip: entry.ip,
      details: entry.details === undefined ? null : JSON.stringify(entry.details),
    })
    .execute();
  await securityNotice(db, at, entry);
}

/** The merchant's security log, newest first. */
export function listSecurity(db: Db, merchantId: string, req: PageRequest): Promise<Page<SecurityLogView>> {
  const q = db.selectFrom('merchant_security_log').selectAll().where('merchant_id', '=', merchantId);
  return page(
    q,
    'at',
    req,
    (r) => ({
      id: r.id,
      at: r.at,
      userEmail: r.user_email,
      action: r.action,
      ip: r.ip,
      details: r.details === null ? null : (JSON.parse(r.details) as Record<string, unknown>),
    }),
    'desc',
  );
}
