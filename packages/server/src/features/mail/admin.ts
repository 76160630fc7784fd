import { type Page, type PageRequest, page } from '../../admin/pagination.js';
import { HostpayError } from '../../errors.js';
import { type RenderDeps, renderRow } from './render.js';
import type { MailOutboxTable, MailStatus } from './tables.js';

/** A mail as operators see it (GET /admin/v1/mail). */
export interface MailView {
  id: string;
  merchantId: string | null;
  kind: string;
  to: string;
  toRole: string;
  status: MailStatus;
  subject: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
  nextAttemptAt: string | null;
  /** The body was deleted (a link token's mail, 7 days after sending). */
  bodyDeleted: boolean;
}

export interface MailDetail extends MailView {
  /** The mail as it is (or would be) sent; null once its body was deleted. */
  text: string | null;
  html: string | null;
}

export const mailView = (r: MailOutboxTable): MailView => ({
  id: r.id,
  merchantId: r.merchant_id,
  kind: r.kind,
  to: r.to_address,
  toRole: r.to_role,
  status: r.status,
  subject: r.subject,
  attempts: r.attempts,
  lastError: r.last_error,
  createdAt: r.created_at,
  sentAt: r.sent_at,
  nextAttemptAt: r.status === 'pending' ? r.next_attempt_at : null,
  bodyDeleted: r.body_deleted_at !== null,
});

export interface MailFilter {
  merchantId?: string | undefined;
  status?: MailStatus | undefined;
  to?: string | undefined;
}

/** The operators' view of the outbox: every mail, newest first, and one mail rendered. */
export function mailAdmin(deps: RenderDeps) {
  const db = deps.db;
  return {
    async listMail(filter: MailFilter, req: PageRequest): Promise<Page<MailView>> {
      let q = db.selectFrom('mail_outbox').selectAll();
      if (filter.merchantId !== undefined) q = q.where('merchant_id', '=', filter.merchantId);
      if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      if (filter.to !== undefined) q = q.where('to_address', '=', filter.to);
      return page(q, 'created_at', req, mailView, 'desc');
    },
    async getMail(id: string): Promise<MailDetail> {
      const row = await db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
      if (row === undefined) throw new HostpayError('NOT_FOUND', `mail ${id} does not exist`);
      // A mail that cannot be rendered any more (a kind no feature sends now, data that no longer
      // opens) is still shown, without its text, as the sender marks it instead of failing.
      const rendered = await renderRow(deps, row).catch(() => null);
      return {
        ...mailView(row),
        subject: row.subject ?? rendered?.subject ?? null,
        text: rendered?.text ?? null,
        html: rendered?.html ?? null,
      };
    },
  };
}

export type MailAdmin = ReturnType<typeof mailAdmin>;
