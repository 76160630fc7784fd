import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { Currency, DecimalString, READ, WRITE } from '../../admin/schemas.js';
import type { RateAdmin } from './service.js';
import { PairBody, PairParams, RateDeletedView, RatePairView, RateView } from './schemas.js';

const Rates = Type.Array(RateView);
const Pairs = Type.Array(RatePairView);
const WRITE_ERRORS = [...ERRORS.adminWrite, 'INVALID_AMOUNT', 'UNSUPPORTED_CURRENCY'] as const;

/** Exchange rates: an operator's (pinned) and the feeds' (docs/rates.md), with their freshness. */
export async function rateAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<RateAdmin>): Promise<void> {
  app.put(
    '/rates',
    {
      schema: {
        ...WRITE,
        operationId: 'setExchangeRate',
        summary: 'Set an exchange rate (1 base = rate quote); the inverse is derived when needed',
        description:
          "Used by fee previews and checkouts when the currencies differ. The rate is an exact decimal given as a JSON string. An operator's rate pins the pair: the rate feeds leave it alone until it is removed (DELETE). Audited.",
        body: Type.Object(
          {
            base: Currency('base currency'),
            quote: Currency('quote currency'),
            rate: DecimalString('Rate, greater than 0'),
            source: Type.Optional(
              Type.String({ minLength: 1, maxLength: 100, description: 'where the rate comes from (default manual)' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: responses(200, RateView, 'The rate as stored, with its source and time.', WRITE_ERRORS),
      },
    },
    async (req, reply) => send(reply, 200, RateView, 'rate set', await admin.setRate(req.body, auditOf(req))),
  );

  app.get(
    '/rates',
    {
      schema: {
        ...READ,
        operationId: 'listExchangeRates',
        summary: 'List exchange rates with their source, age and staleness',
        description:
          'Every stored rate: where it came from, when its source answered, how long it may be quoted, its age now and whether it is stale (a stale rate is not used).',
        response: responses(200, Rates, 'Every rate.', ERRORS.adminRead),
      },
    },
    async (_req, reply) => send(reply, 200, Rates, 'rates', await admin.listRates()),
  );

  app.delete(
    '/rates/:base/:quote',
    {
      schema: {
        ...WRITE,
        operationId: 'deleteExchangeRate',
        summary: "Remove a stored rate (an operator's pin)",
        description:
          "Removes the pair's stored rate. When rate feeds provide the pair with a fresh answer, their rate is written at once (`replacedBy`). Audited.",
        params: PairParams,
        response: responses(200, RateDeletedView, 'The rate is gone.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        RateDeletedView,
        'rate deleted',
        await admin.deleteRate(req.params.base, req.params.quote, auditOf(req)),
      ),
  );

  app.put(
    '/rate-pairs/:base/:quote',
    {
      schema: {
        ...WRITE,
        operationId: 'setRatePair',
        summary: "Set a pair's feed rules: cross rates, outlier share",
        description:
          'Whether a cross rate through a third currency may stand in for the pair when no source provides it (default no), and how far (percent) a source may be from the median before it is dropped (default 5). Fields left out keep their value. Audited.',
        params: PairParams,
        body: PairBody,
        response: responses(200, RatePairView, "The pair's rules.", WRITE_ERRORS),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        RatePairView,
        'rate pair set',
        await admin.setRatePair(req.params.base, req.params.quote, req.body, auditOf(req)),
      ),
  );

  app.get(
    '/rate-pairs',
    {
      schema: {
        ...READ,
        operationId: 'listRatePairs',
        summary: 'List the pairs with feed rules of their own',
        description: 'Pairs not listed take the defaults: no cross rate, 5% outlier share.',
        response: responses(200, Pairs, 'Every pair with rules.', ERRORS.adminRead),
      },
    },
    async (_req, reply) => send(reply, 200, Pairs, 'rate pairs', await admin.listRatePairs()),
  );
}
