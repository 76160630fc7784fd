import { Type } from '@sinclair/typebox';
import { HostpayError } from '../../errors.js';
import { ISO_TIME_HELP, isoTime } from '../../http/iso-time.js';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { responses, send, type AdminRouteContext } from '../../admin/reply.js';
import type { AuditAdmin } from './service.js';
import { pageOf, PageQuery, Query, READ } from '../../admin/schemas.js';
import { Page } from '../../admin/views.js';
import { AuditEntryView } from './schemas.js';

/** The audit log: every admin write, who made it (operator name, request id), before and after. */
const Entries = Page(AuditEntryView);
const Text = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 128, description }));

export async function auditAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<AuditAdmin>): Promise<void> {
  app.get(
    '/audit',
    {
      schema: {
        ...READ,
        operationId: 'listAuditEntries',
        summary: 'Read the audit log, oldest first',
        description:
          'Every admin write with the operator, the request id and the object before and after, filtered by object, operator, action or time. Paged: pass nextCursor as cursor for the next page.',
        querystring: Query({
          objectType: Text(
            'merchant, api_key, wallet, fee_schedule, settlement_currency, rate, master_key, webhook_endpoint, …',
          ),
          objectId: Text('id of the changed object'),
          operator: Text('operator name'),
          action: Text('e.g. api_key.revoke'),
          since: Type.Optional(
            Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601 time: entries at or after it' }),
          ),
          ...PageQuery,
        }),
        response: responses(200, Entries, 'A page of audit entries.', ERRORS.adminRead),
      },
    },
    async (req, reply) => {
      const { objectType, objectId, operator, action, since } = req.query;
      let from: string | undefined;
      if (since !== undefined) {
        from = isoTime(since) ?? undefined;
        if (from === undefined)
          throw new HostpayError('INVALID_QUERY', `query parameter \`since\` must be ${ISO_TIME_HELP}`, {
            parameter: 'since',
          });
      }
      const page = await admin.listAudit({ objectType, objectId, operator, action, since: from }, pageOf(req.query));
      return send(reply, 200, Entries, 'audit entries', page);
    },
  );
}
