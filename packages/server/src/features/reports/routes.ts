import {
  REPORT_COLUMNS,
  REPORT_FORMATS,
  REPORT_KIND_SCOPE,
  REPORT_KINDS,
  REPORT_PATHS,
  SearchHit,
  Statement,
  type Scope,
} from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { authorize, principalOf, type Principal } from '../../auth/principal.js';
import { HostpayError } from '../../errors.js';
import type { FeatureRouteContext } from '../../feature-kit/feature.js';
import { BASE_ERRORS, merchantScope, MerchantQuery, ok, send } from '../../http/merchant-scope.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { successBody } from '../../http/success-body.js';

const TAGS = ['reports'];
const Time = (description: string) =>
  Type.String({ format: 'date-time', maxLength: 64, description: `${description}, RFC 3339 with an offset` });
const KIND_TEXT = REPORT_KINDS.map((k) => `${k}: ${REPORT_COLUMNS[k].join(', ')}`).join('; ');

function holds(principal: Principal, scope: Scope): boolean {
  try {
    authorize(scope, principal);
    return true;
  } catch (err) {
    if (err instanceof HostpayError && err.code === 'SCOPE_MISSING') return false;
    throw err;
  }
}

/** GET /api/v1/cp/reports/{kind}, …/reports/statement and /api/v1/cp/search (spec/commerce.md). */
export async function reportRoutes(app: TypedApp, ctx: FeatureRouteContext<'reports'>): Promise<void> {
  const { reports } = ctx;
  const merchantOf = merchantScope(app, ctx, 1024, '');

  app.get(
    REPORT_PATHS.statement,
    {
      schema: {
        tags: TAGS,
        operationId: 'getStatement',
        summary: 'The month’s statement, per wallet',
        description:
          'UTC month. Per wallet: opening, credits, debits, fees, closing, frozenAtClose; opening + credits − debits = closing exactly = the balance at the month’s end. `fees` (service fees withheld from the month’s settlements, already netted out of their credits) is for information, outside the equation.',
        security: SECURITY.merchant,
        querystring: Type.Object(
          { ...MerchantQuery, month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM (UTC)' }) },
          { additionalProperties: false },
        ),
        response: { 200: ok(Statement, 'The statement.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'reports:read' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      return send(reply, 200, successBody(await reports.statement(merchantId, req.query.month)));
    },
  );

  app.get(
    REPORT_PATHS.report,
    {
      schema: {
        tags: TAGS,
        operationId: 'downloadReport',
        summary: 'Export checkouts, payments, payouts, ledger postings or fees as CSV or NDJSON',
        description: `Rows in [from, to), oldest first by (time, id); streamed in pages, whatever the range. Not enveloped: text/csv (RFC 4180, CRLF, header row; text cells starting with = + - @ TAB or CR are prefixed with ') or application/x-ndjson, with Content-Disposition attachment. Needs reports:read and the kind's read scope (payouts:read for payouts, else checkout:read). An error before the first byte is the usual envelope; one after it aborts the connection. At most 2 downloads per merchant at once (429 RATE_LIMITED). Columns (docs/reports.md) — ${KIND_TEXT}.`,
        security: SECURITY.merchant,
        params: Type.Object(
          {
            kind: Type.Union(
              REPORT_KINDS.map((k) => Type.Literal(k)),
              { description: 'the report' },
            ),
          },
          { additionalProperties: false },
        ),
        querystring: Type.Object(
          {
            ...MerchantQuery,
            from: Time('start (inclusive)'),
            to: Time('end (exclusive); a time after now reads as now; at most 366 days after from'),
            format: Type.Optional(
              Type.Union(
                REPORT_FORMATS.map((f) => Type.Literal(f)),
                { description: 'csv (default) or ndjson' },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: {
            description: 'The report file.',
            content: {
              'text/csv': { schema: Type.String({ description: 'RFC 4180 CSV with a header row' }) },
              'application/x-ndjson': { schema: Type.String({ description: 'one JSON object per line' }) },
            },
          },
          ...errorResponses([...BASE_ERRORS, 'RATE_LIMITED']),
        },
      },
      config: { scope: 'reports:read' },
    },
    async (req, reply) => {
      const { kind } = req.params;
      authorize(REPORT_KIND_SCOPE[kind], principalOf(req));
      const merchantId = await merchantOf(req, req.query.merchantId);
      const file = await reports.download(merchantId, kind, req.query, ctx.now());
      return reply
        .code(200)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .type(file.contentType)
        .send(file.stream as unknown as string);
    },
  );

  app.get(
    REPORT_PATHS.search,
    {
      schema: {
        tags: TAGS,
        operationId: 'search',
        summary: 'Find checkouts, payouts, payment links and invoices',
        description:
          'Checkouts (checkout:read): id, order id, customer email, deposit address, payment transaction hash, amount (the checkout’s, any option’s amountDue, any payment’s). Payouts (payouts:read): id, destination, transaction hash, amount or total. Payment links (links:read): id, slug or public URL, name (a part of it, ignoring case). Invoices (invoices:read): id, number, customer email, total. Addresses and hashes exactly (EVM ones case-insensitively, 0x optional); emails exactly ignoring case; amounts by numeric equality. Each kind only with its read scope (403 SCOPE_MISSING with none). Newest first.',
        security: SECURITY.merchant,
        querystring: Type.Object(
          {
            ...MerchantQuery,
            q: Type.String({
              minLength: 3,
              maxLength: 200,
              description: 'what to look for, 3–200 characters; `limit`: at most this many hits, 1–50 (default 20)',
            }),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: ok(Type.Array(SearchHit), 'Hits, newest first.'), ...errorResponses(BASE_ERRORS) },
      },
    },
    async (req, reply) => {
      const principal = principalOf(req);
      const all = reports.searchSources();
      const sources = all.filter((s) => holds(principal, s.scope as Scope));
      // With none of the kinds' scopes, the error names the first one a search needs.
      if (sources.length === 0) authorize(all[0]!.scope as Scope, principal);
      const merchantId = await merchantOf(req, req.query.merchantId);
      const hits = await reports.search(merchantId, req.query.q, req.query.limit ?? 20, sources);
      return send(reply, 200, successBody(hits));
    },
  );
}
