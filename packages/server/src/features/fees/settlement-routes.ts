import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import type { FeeAdmin } from './service.js';
import { Currency, Id, READ, WRITE } from '../../admin/schemas.js';
import { SettlementView } from './schemas.js';

/**
 * What fees are charged in: settlement currencies (per merchant or default); the exchange rates
 * used when the asked currency differs from it are the rates feature's.
 */
const Settlements = Type.Array(SettlementView);
const WRITE_ERRORS = [...ERRORS.adminWrite, 'INVALID_AMOUNT', 'UNSUPPORTED_CURRENCY'] as const;

export async function settlementAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<FeeAdmin>): Promise<void> {
  app.put(
    '/settlement-currencies',
    {
      schema: {
        ...WRITE,
        operationId: 'setSettlementCurrency',
        summary: 'Set the currency fees for a currency are charged in',
        description:
          'Fees for `currency` are computed and charged in `settlementCurrency`, converted at the stored rate; per merchant or as the default.',
        body: Type.Object(
          {
            currency: Currency('currency asked for'),
            settlementCurrency: Currency('currency the fees are charged in'),
            merchantId: Type.Optional(Id("merchant whose choice this is; absent: the operator's default")),
          },
          { additionalProperties: false },
        ),
        response: responses(200, SettlementView, 'The settlement currency as stored.', WRITE_ERRORS),
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        SettlementView,
        'settlement currency set',
        await admin.setSettlementCurrency(req.body, auditOf(req)),
      ),
  );

  app.get(
    '/settlement-currencies',
    {
      schema: {
        ...READ,
        operationId: 'listSettlementCurrencies',
        summary: 'List settlement currencies',
        description: 'The default settlement currencies and the merchant overrides.',
        response: responses(200, Settlements, 'Every settlement currency, defaults first.', ERRORS.adminRead),
      },
    },
    async (_req, reply) =>
      send(reply, 200, Settlements, 'settlement currencies', await admin.listSettlementCurrencies()),
  );
}
