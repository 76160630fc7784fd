import { MerchantSummary, SUMMARY_PATHS } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { BASE_ERRORS, merchantScope, MerchantQuery, ok, send } from '../../http/merchant-scope.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { envelopeJson } from '../../http/success-body.js';
import type { SummaryService } from './summary.js';

export interface SummaryRouteContext extends RouteContext {
  summary: SummaryService;
}

/** GET /api/v1/cp/summary: the dashboard home's figures (signed requests and the session alike). */
export async function summaryRoutes(app: TypedApp, ctx: SummaryRouteContext): Promise<void> {
  const merchantOf = merchantScope(app, ctx, 1024, '{}');
  app.get(
    SUMMARY_PATHS.summary,
    {
      schema: {
        tags: ['merchant'],
        operationId: 'getSummary',
        summary: "The merchant's summary: balances, settled volume, checkouts needing attention",
        description:
          "Balances per wallet (the ledger's), the volume settled today and this month (UTC) per currency, and the checkouts that need the merchant (see `attention`). Exact decimals as JSON numbers.",
        security: SECURITY.merchant,
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        response: { 200: ok(MerchantSummary, 'The summary.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'checkout:read' },
    },
    async (req, reply) =>
      send(reply, 200, envelopeJson(await ctx.summary.summaryJson(await merchantOf(req, req.query.merchantId)))),
  );
}
