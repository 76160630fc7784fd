import { jsonDecimal, parseExactJson, writeExactJson } from '@hostpay/protocol';
import { newId, nowIso } from '../../store/ids.js';
import type { Db } from '../../store/store.js';
import { page, type Page, type PageRequest } from '../../admin/pagination.js';

/** Who is making an admin change: an operator token's name, `cli:<user>`, or `demo`. */
import type { AuditContext } from '../../admin/deps.js';
export type { AuditContext };

export interface AuditEntry {
  action: string;
  objectType: string;
  objectId: string;
  before: unknown;
  after: unknown;
}

/** Records a change in the same transaction as the change itself: both land or neither. */
export async function recordAudit(trx: Db, ctx: AuditContext, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      id: newId('aud'),
      at: nowIso(),
      operator: ctx.operator,
      action: entry.action,
      object_type: entry.objectType,
      object_id: entry.objectId,
      // Written and read with the exact JSON pair, so amounts in snapshots keep every digit.
      before: entry.before === undefined || entry.before === null ? null : writeExactJson(entry.before),
      after: entry.after === undefined || entry.after === null ? null : writeExactJson(entry.after),
      request_id: ctx.requestId ?? null,
    })
    .execute();
}

export interface AuditFilter {
  objectType?: string | undefined;
  objectId?: string | undefined;
  operator?: string | undefined;
  action?: string | undefined;
  since?: string | undefined;
}

export interface AuditView {
  id: string;
  at: string;
  operator: string;
  action: string;
  objectType: string;
  objectId: string;
  before: unknown;
  after: unknown;
  requestId: string | null;
}

export async function listAudit(db: Db, filter: AuditFilter, req: PageRequest): Promise<Page<AuditView>> {
  let q = db.selectFrom('audit_log').selectAll();
  if (filter.objectType) q = q.where('object_type', '=', filter.objectType);
  if (filter.objectId) q = q.where('object_id', '=', filter.objectId);
  if (filter.operator) q = q.where('operator', '=', filter.operator);
  if (filter.action) q = q.where('action', '=', filter.action);
  if (filter.since) q = q.where('at', '>=', filter.since);
  return page(q, 'at', req, (r) => ({
    id: r.id,
    at: r.at,
    operator: r.operator,
    action: r.action,
    objectType: r.object_type,
    objectId: r.object_id,
    before: r.before === null ? null : parseExactJson(r.before, jsonDecimal),
    after: r.after === null ? null : parseExactJson(r.after, jsonDecimal),
    requestId: r.request_id,
  }));
}

/** The audit log as the admin API reads it. */
export interface AuditAdmin {
  listAudit(filter: AuditFilter, page: PageRequest): Promise<Page<AuditView>>;
}
