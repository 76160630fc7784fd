import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import type { FeeAdmin } from './service.js';
import { Currency, DecimalString, Id, IdParams, Query, READ, WRITE } from '../../admin/schemas.js';
import { DeletedView } from '../../admin/views.js';
import { FeePreviewView, FeeTierView } from './schemas.js';

/**
 * Fee schedules: a tier per (merchant or default, currency, fromAmount), set with PUT (the same
 * three again replace the tier), listed, deleted; and the preview of what a merchant would pay.
 */
const FeeTierBody = Type.Object(
  {
    currency: Currency('currency the schedule is for'),
    isPercentage: Type.Boolean({
      description: 'true: value is a percentage of the amount (1.5 = 1.5 %); false: a fixed fee',
    }),
    value: DecimalString('Percentage (at most 100) or fixed fee, at least 0'),
    minValue: Type.Optional(DecimalString('Smallest fee (default "0")')),
    onChainFee: Type.Optional(DecimalString('Network fee added on top (default "0")')),
    fromAmount: Type.Optional(DecimalString('Lower bound of this tier, inclusive (default "0": the first tier)')),
    feeCurrency: Type.Optional(
      Currency(
        'also set the currency fees for `currency` are charged in (settlement currency), for the same merchant or default',
      ),
    ),
    merchantId: Type.Optional(Id("merchant whose override this is; absent: the operator's default schedule")),
  },
  { additionalProperties: false },
);
const Tiers = Type.Array(FeeTierView);
const FEE_WRITE_ERRORS = [...ERRORS.adminWrite, 'INVALID_AMOUNT', 'UNSUPPORTED_CURRENCY'] as const;

export async function feeAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<FeeAdmin>): Promise<void> {
  app.put(
    '/fees',
    {
      schema: {
        ...WRITE,
        operationId: 'setFeeTier',
        summary: 'Set a fee tier (created, or replaced when merchant, currency and fromAmount match)',
        description:
          'A percentage or fixed fee with a minimum and an on-chain fee, for one merchant (an override) or for the default schedule, from fromAmount up to the next tier. Decimals are JSON strings so nothing is rounded on the way in.',
        body: FeeTierBody,
        response: responses(200, FeeTierView, 'The tier as stored.', FEE_WRITE_ERRORS),
      },
    },
    async (req, reply) => send(reply, 200, FeeTierView, 'fee tier set', await admin.setFee(req.body, auditOf(req))),
  );

  app.get(
    '/fees',
    {
      schema: {
        ...READ,
        operationId: 'listFeeTiers',
        summary: 'List fee tiers by merchant (default first), currency and fromAmount',
        description:
          'The tiers of the default schedule and of merchant overrides, optionally for one merchant (`default` for the default schedule) or one currency.',
        querystring: Query({
          merchantId: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 128,
              description: "a merchant's overrides; `default`: the operator's default schedule; absent: all",
            }),
          ),
          currency: Type.Optional(Currency('currency')),
        }),
        response: responses(200, Tiers, 'The tiers.', [...ERRORS.adminRead, 'INVALID_CURRENCY']),
      },
    },
    async (req, reply) => {
      const { merchantId, currency } = req.query;
      const tiers = await admin.listFees({ merchantId: merchantId === 'default' ? '' : merchantId, currency });
      return send(reply, 200, Tiers, 'fee tiers', tiers);
    },
  );

  app.delete(
    '/fees/:id',
    {
      schema: {
        ...WRITE,
        operationId: 'deleteFeeTier',
        summary: 'Delete a fee tier',
        description:
          'Removes one tier. A merchant left without tiers for a currency falls back to the default schedule.',
        params: IdParams('fee tier'),
        response: responses(200, DeletedView, 'The tier is gone.', ERRORS.adminWrite),
      },
    },
    async (req, reply) => {
      await admin.deleteFeeTier(req.params.id, auditOf(req));
      return send(reply, 200, DeletedView, 'fee tier deleted', { id: req.params.id, deleted: true });
    },
  );

  app.get(
    '/fees/preview',
    {
      schema: {
        ...READ,
        operationId: 'previewMerchantFee',
        summary: 'Which schedule and tier apply to a merchant, currency and amount, and the fee they give',
        description:
          "The same answer the merchant gets from GET /api/v1/cp/psp/hosted-pay/fees-preview, without the merchant's credentials.",
        querystring: Query({
          merchantId: Id('merchant'),
          currency: Currency('currency asked for'),
          amount: Type.String({
            minLength: 1,
            maxLength: 64,
            description: 'checkout amount, positive decimal, e.g. 99.95',
          }),
        }),
        response: responses(200, FeePreviewView, 'The fee preview the merchant would get.', [
          ...ERRORS.adminRead,
          'INVALID_AMOUNT',
          'INVALID_CURRENCY',
          'UNSUPPORTED_CURRENCY',
          'NO_FEE_SCHEDULE',
          'NO_RATE',
          'RATE_STALE',
        ]),
      },
    },
    async (req, reply) => {
      const { merchantId, currency, amount } = req.query;
      return send(reply, 200, FeePreviewView, 'fee preview', await admin.operatorPreview(merchantId, currency, amount));
    },
  );
}
