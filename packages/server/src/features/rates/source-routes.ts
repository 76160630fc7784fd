import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { DeletedView } from '../../admin/views.js';
import { READ, WRITE } from '../../admin/schemas.js';
import type { SourceAdmin } from './sources.js';
import { RateSourceView, SourceBody, SourceParams } from './schemas.js';

const Sources = Type.Array(RateSourceView);
const WRITE_ERRORS = [...ERRORS.adminWrite, 'INVALID_URL', 'UNSUPPORTED_CURRENCY'] as const;

/** The rate feeds' sources (docs/rates.md): providers, their pairs, timings and health. */
export async function rateSourceAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<SourceAdmin>): Promise<void> {
  app.get(
    '/rate-sources',
    {
      schema: {
        ...READ,
        operationId: 'listRateSources',
        summary: 'Rate sources with their health',
        description:
          'Every configured rate source: provider, address (masked), pairs, refresh interval, maximum age, and its health (last success, last error, latency, which instance refreshes it).',
        response: responses(200, Sources, 'Every rate source.', ERRORS.adminRead),
      },
    },
    async (_req, reply) => send(reply, 200, Sources, 'rate sources', await admin.listRateSources()),
  );

  app.get(
    '/rate-sources/:id',
    {
      schema: {
        ...READ,
        operationId: 'getRateSource',
        summary: 'A rate source with its health',
        description: "One rate source's settings and health.",
        params: SourceParams,
        response: responses(200, RateSourceView, 'The rate source.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, RateSourceView, 'rate source', await admin.getRateSource(req.params.id)),
  );

  app.put(
    '/rate-sources/:id',
    {
      schema: {
        ...WRITE,
        operationId: 'setRateSource',
        summary: 'Create or change a rate source',
        description:
          'A provider (coinbase, kraken, binance, ecb; demo on a sandbox server), the pairs it provides, how often it is asked and how long its answers may be quoted. The base URL passes the same address checks as webhook URLs. Fields left out keep their value (or take the default). Audited.',
        params: SourceParams,
        body: SourceBody,
        response: responses(200, RateSourceView, 'The rate source as stored.', WRITE_ERRORS),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        RateSourceView,
        'rate source set',
        await admin.setRateSource(req.params.id, req.body, auditOf(req)),
      ),
  );

  app.delete(
    '/rate-sources/:id',
    {
      schema: {
        ...WRITE,
        operationId: 'deleteRateSource',
        summary: 'Remove a rate source',
        description:
          'The source and its answers go; the rates it fed are recomputed from the other sources, or age until they are stale. Audited.',
        params: SourceParams,
        response: responses(200, DeletedView, 'The source is gone.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(reply, 200, DeletedView, 'rate source deleted', await admin.deleteRateSource(req.params.id, auditOf(req))),
  );
}
