import { ExactNumber } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import { DecimalString, READ, WRITE } from '../../admin/schemas.js';
import { obj, Time } from '../../admin/views.js';
import type { spreadAdmin } from './spread.js';

const RateSpreadView = obj({
  percent: ExactNumber(
    "The default spread in percent (0 to 10) added to the payer's rate of every converted checkout option, for merchants without their own (`rateSpreadPercent`).",
  ),
  updatedAt: Type.Union([Time, Type.Null()], { description: 'when an operator last set it; null: never (0)' }),
});

/** The operators' default rate spread: read it, set it (audited). */
export async function spreadAdminRoutes(
  app: TypedApp,
  { admin }: AdminRouteContext<ReturnType<typeof spreadAdmin>>,
): Promise<void> {
  app.get(
    '/rate-spread',
    {
      schema: {
        ...READ,
        operationId: 'getDefaultRateSpread',
        summary: 'Read the default rate spread',
        description:
          "The markup (percent) applied to the payer's rate currency → asset of every converted checkout option, for merchants without a spread of their own.",
        response: responses(200, RateSpreadView, 'The default spread.', ERRORS.adminRead),
      },
    },
    async (_req, reply) => send(reply, 200, RateSpreadView, 'default rate spread', await admin.getDefaultRateSpread()),
  );

  app.put(
    '/rate-spread',
    {
      schema: {
        ...WRITE,
        operationId: 'setDefaultRateSpread',
        summary: 'Set the default rate spread',
        description:
          "Percent, 0 to 10, at most 4 fractional digits: the payer's rate of a converted option is the source rate × (1 + percent / 100). Applies to checkouts created afterwards (each option keeps the rate it was created with) of merchants without their own spread (PATCH /merchants/{id} `rateSpreadPercent`). Audited (`rate_spread.set`).",
        body: Type.Object(
          { percent: DecimalString('Spread in percent, 0 to 10') },
          { additionalProperties: false, description: '{"percent": "1.5"}' },
        ),
        response: responses(200, RateSpreadView, 'The default spread as stored.', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        RateSpreadView,
        'default rate spread set',
        await admin.setDefaultRateSpread(req.body.percent, auditOf(req)),
      ),
  );
}
