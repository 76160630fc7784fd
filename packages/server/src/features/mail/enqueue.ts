import { createHash } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import { newId } from '../../store/ids.js';
import { runSteps, type Steps } from '../../store/steps.js';
import type { Db } from '../../store/store.js';
import { checkEmail } from '@hostpay/protocol';

/** Who a mail is for: a payer of the merchant, one of its dashboard users, or an operator. */
export type MailRole = 'payer' | 'user' | 'operator';

/**
 * One mail owed (docs/mail.md, "Sending a mail from a feature"). `kind` names the template that
 * renders it (render.ts, or a feature's contribution to `mailTemplates`) from `data`, when it is
 * sent or shown; `secret` true when `data` holds a link token: it is sealed at rest and deleted
 * 7 days after sending.
 */
export interface MailRequest {
  /** The merchant the mail is sent in the name of (its name, logo, support address); null: hostpay's own. */
  merchantId: string | null;
  kind: string;
  /**
   * One addr-spec. Check it where it enters (http/email-field.ts): here a stored address that no
   * longer passes (a user invited before the check) is written as a `failed` mail saying why, so
   * the change that causes the mail (a settlement, a payout) is never rolled back by it.
   */
  to: string;
  toRole: MailRole;
  /** The dashboard user it is for, when it is for one. */
  userId?: string | null;
  data: Record<string, unknown>;
  secret?: boolean;
  /**
   * What makes the mail owed once at most (`receipt:<checkout id>`): the mail's id is derived from
   * it, so a second request with the same key writes nothing and answers the first one's id, even
   * when the cause runs twice (a retried settlement). Without a key every request is a new mail.
   */
  key?: string;
}

/** The id of the mail owed once by `key`: `mail_` and 24 hex digits (96 bits) of its hash, in the ids' alphabet. */
export const keyedMailId = (key: string) =>
  `mail_${createHash('sha256').update(`mail-key:${key}`).digest('hex').slice(0, 24)}`;

/** The associated data a mail's sealed data is bound to. */
export const mailOwner = (id: string) => `mail:${id}`;

/**
 * Writes one mail row inside the caller's transaction: the mail exists exactly when its cause
 * committed. `box` is needed only for a secret mail. Returns the mail id (its Message-ID's left part);
 * a keyed mail already written is left as it is.
 */
export function enqueueMail(trx: Db, mail: MailRequest, at: string, box?: Pick<SecretBox, 'seal'>): Promise<string> {
  return runSteps(trx, enqueueSteps(trx, mail, at, box));
}

/** enqueueMail as steps of the caller's write path (store/steps.ts). */
export function* enqueueSteps(db: Db, mail: MailRequest, at: string, box?: Pick<SecretBox, 'seal'>): Steps<string> {
  const checked = checkEmail(mail.to);
  const to = checked.ok ? checked.value : mail.to;
  const id = mail.key === undefined ? newId('mail') : keyedMailId(mail.key);
  const json = JSON.stringify(mail.data);
  if (mail.secret === true && box === undefined)
    throw new Error(`mail of kind ${mail.kind} holds a secret: pass the box`);
  yield db
    .insertInto('mail_outbox')
    .values({
      id,
      merchant_id: mail.merchantId,
      kind: mail.kind,
      to_address: to,
      to_role: mail.toRole,
      user_id: mail.userId ?? null,
      data: mail.secret === true ? null : json,
      data_sealed: mail.secret === true && box !== undefined ? box.seal(json, mailOwner(id)) : null,
      subject: null,
      status: checked.ok ? 'pending' : 'failed',
      attempts: 0,
      next_attempt_at: at,
      lease_owner: null,
      lease_expires_at: null,
      last_error: checked.ok ? null : `not sent: the address ${checked.reason}`,
      created_at: at,
      updated_at: at,
      sent_at: null,
      body_deleted_at: null,
    })
    .onConflict((oc) => oc.column('id').doNothing());
  return id;
}
