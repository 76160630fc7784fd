import { DECIMAL_FORMAT, REPORT_COLUMNS, REPORT_FORMATS, REPORT_KINDS } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { Id, Query, READ, TimeQuery } from '../../admin/schemas.js';
import { ERRORS, errorResponses } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { MERCHANT_COLUMN } from './merchant-column.js';
import type { OperatorReports } from './operator.js';
import { RECONCILIATION_REASONS } from './reconciliation-types.js';

const obj = (props: Parameters<typeof Type.Object>[0], description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description === undefined ? {} : { description }) });
const Exact = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description}; an exact decimal as a JSON number literal` });
const Figures = (description: string) =>
  obj(
    {
      count: Type.Integer(),
      amounts: Type.Record(Type.String(), Exact('the sum in this asset'), { description: 'per asset symbol' }),
    },
    description,
  );
const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const ReconciliationDifference = obj({
  kind: Type.Union([Type.Literal('transfer'), Type.Literal('payout')]),
  reason: Type.Union(
    RECONCILIATION_REASONS.map((r) => Type.Literal(r)),
    {
      description:
        'reported_by_hand: no chain watcher reported the transfer, or an operator reported or confirmed the payout’s transaction; retracted: a reorganisation took it out; awaiting_confirmations: short of the depth; in_review: the checkout needs review, or the payout awaits approval; unmatched: to no deposit address; not_credited: anything else (an underpaid, expired or extra payment: see detail)',
    },
  ),
  detail: Nullable('the checkout’s status and the transfer’s exception, the confirmations, or the payout’s status'),
  transferId: Nullable('the transfer'),
  checkoutId: Nullable('the checkout it pays'),
  payoutId: Nullable('the payout'),
  txHash: Nullable('the transaction'),
  asset: Type.String(),
  amount: Exact('the transfer’s or payout’s amount'),
  counted: Type.Boolean({ description: 'whether it is in `credited` (a transfer) or `payoutsCompleted` (a payout)' }),
  at: Type.String({ description: 'when the transfer was recorded, or the payout entry’s time (UTC ISO)' }),
});

export const ReconciliationReport = obj({
  from: Type.String({ description: 'start (inclusive), UTC ISO' }),
  to: Type.String({ description: 'end (exclusive), UTC ISO; a `to` after now reads as now' }),
  days: Type.Array(
    obj({
      chain: Type.String(),
      day: Type.String({ description: 'UTC day, YYYY-MM-DD' }),
      seen: Figures('transfers chain watchers recorded that day (a sandbox’s simulated payments count as seen)'),
      credited: Figures('of the transfers recorded that day, those counted in a settlement credit'),
      payoutsCompleted: Figures('payouts (refunds included) completed that day, each with its transaction hash'),
      differences: Type.Array(ReconciliationDifference, {
        description:
          'every seen transfer not credited, every transfer no watcher reported, every payout sent but not completed, awaiting approval, or sent or confirmed by hand',
      }),
    }),
    { description: 'chains by symbol, days oldest first; days with nothing are left out' },
  ),
});

const RANGE = {
  from: TimeQuery('start (inclusive)'),
  to: TimeQuery('end (exclusive); a time after now reads as now; at most 366 days after from'),
};

/** GET /admin/v1/reports/{kind} and /admin/v1/reports/reconciliation (docs/reports.md). */
export async function reportAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<OperatorReports>): Promise<void> {
  app.get(
    '/reports/reconciliation',
    {
      schema: {
        ...READ,
        operationId: 'getReconciliation',
        summary: 'What the chains showed against the books, per chain and UTC day',
        description:
          'Per chain and UTC day of [from, to) (0 < to − from ≤ 366 days, else 400 INVALID_QUERY): transfers chain watchers saw, transfers credited, payouts completed with their hashes, and every difference with its reason (docs/reports.md, "Reconciliation").',
        querystring: Query(RANGE),
        response: responses(200, ReconciliationReport, 'The reconciliation.', ERRORS.adminRead),
      },
    },
    async (req, reply) =>
      send(reply, 200, ReconciliationReport, 'reconciliation', await admin.reconciliation(req.query)),
  );

  app.get(
    '/reports/:kind',
    {
      schema: {
        ...READ,
        operationId: 'downloadOperatorReport',
        summary: 'Every merchant’s checkouts, payments, payouts, ledger postings or fees as CSV or NDJSON',
        description: `The merchant report of the same kind (GET /api/v1/cp/reports/{kind}: rows in [from, to) oldest first, streamed, not enveloped) over every merchant, or one with merchantId; each row ends with a column ${MERCHANT_COLUMN}. At most 2 downloads at once per operator token and instance (429 RATE_LIMITED). Columns: ${REPORT_KINDS.map((k) => `${k}: ${REPORT_COLUMNS[k].join(', ')}, ${MERCHANT_COLUMN}`).join('; ')}.`,
        params: Type.Object(
          { kind: Type.Union(REPORT_KINDS.map((k) => Type.Literal(k))) },
          { additionalProperties: false },
        ),
        querystring: Query({
          ...RANGE,
          format: Type.Optional(
            Type.Union(
              REPORT_FORMATS.map((f) => Type.Literal(f)),
              { description: 'csv (default) or ndjson' },
            ),
          ),
          merchantId: Type.Optional(Id('merchant (default: every merchant)')),
        }),
        response: {
          200: {
            description: 'The report file.',
            content: {
              'text/csv': { schema: Type.String({ description: 'RFC 4180 CSV with a header row' }) },
              'application/x-ndjson': { schema: Type.String({ description: 'one JSON object per line' }) },
            },
          },
          ...errorResponses([...ERRORS.adminRead, 'RATE_LIMITED']),
        },
      },
    },
    async (req, reply) => {
      const file = await admin.downloadReport(req.params.kind, req.query, auditOf(req).operator);
      return reply
        .code(200)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .type(file.contentType)
        .send(file.stream as unknown as string);
    },
  );
}
