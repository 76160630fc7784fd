import { sql } from 'kysely';
import { page, type PageRequest } from '../../admin/pagination.js';
import { HostpayError } from '../../errors.js';
import type { WebhookEndpointTable } from './tables.js';
import type { Db } from '../../store/store.js';
import { endpointView } from './view.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The operators' view of every merchant's endpoints with their health: success rate of the last
 * 24 h of attempts, last success, what is queued (and since when), and whether and why disabled.
 */
export function webhookAdmin(db: Db, now: () => number) {
  async function withHealth(rows: WebhookEndpointTable[]) {
    const ids = rows.map((r) => r.id);
    const at = new Date(now()).toISOString();
    const since = new Date(now() - DAY_MS).toISOString();
    const attempts =
      ids.length === 0
        ? []
        : await db
            .selectFrom('webhook_attempts')
            .select(['endpoint_id', sql<number>`count(*)`.as('total'), sql<number>`sum(succeeded)`.as('ok')])
            .where('endpoint_id', 'in', ids)
            .where('attempted_at', '>=', since)
            .groupBy('endpoint_id')
            .execute();
    const queued =
      ids.length === 0
        ? []
        : await db
            .selectFrom('webhook_deliveries')
            .select(['endpoint_id', sql<number>`count(*)`.as('queued'), sql<string>`min(created_at)`.as('oldest')])
            .where('endpoint_id', 'in', ids)
            .where('status', '=', 'pending')
            .groupBy('endpoint_id')
            .execute();
    const a = new Map(attempts.map((r) => [r.endpoint_id, r]));
    const q = new Map(queued.map((r) => [r.endpoint_id, r]));
    return rows.map((r) => {
      const tried = a.get(r.id);
      const total = Number(tried?.total ?? 0);
      return {
        ...endpointView(r, at),
        merchantId: r.merchant_id,
        health: {
          attempts24h: total,
          successRate24h: total === 0 ? null : Number(tried?.ok ?? 0) / total,
          lastSuccessAt: r.last_success_at,
          failingSince: r.failing_since,
          queued: Number(q.get(r.id)?.queued ?? 0),
          oldestQueuedAt:
            q.get(r.id)?.oldest === undefined ? null : new Date(String(q.get(r.id)?.oldest)).toISOString(),
          disabled: r.disabled === 1,
          disabledReason: r.disabled_reason,
          disabledAt: r.disabled_at,
        },
      };
    });
  }

  return {
    async listWebhookEndpoints(
      filter: { merchantId?: string | undefined; disabled?: boolean | undefined },
      req: PageRequest,
    ) {
      let q = db.selectFrom('webhook_endpoints').selectAll();
      if (filter.merchantId !== undefined) q = q.where('merchant_id', '=', filter.merchantId);
      if (filter.disabled !== undefined) q = q.where('disabled', '=', filter.disabled ? 1 : 0);
      const result = await page(q, 'created_at', req, (r) => r);
      return { items: await withHealth(result.items), nextCursor: result.nextCursor };
    },
    async getWebhookEndpoint(id: string) {
      const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
      if (row === undefined) throw new HostpayError('NOT_FOUND', `webhook endpoint ${id} does not exist`);
      return (await withHealth([row]))[0]!;
    },
  };
}
