import { Type } from '@sinclair/typebox';
import { ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { auditOf, responses, send, type AdminRouteContext } from '../../admin/reply.js';
import type { MerchantAdmin } from './service.js';
import { DecimalString, IdParams, NoBody, pageOf, PageQuery, Query, READ, WRITE } from '../../admin/schemas.js';
import { Page } from '../../admin/views.js';
import { MerchantView } from './schemas.js';
import { PayoutSettingsBody } from './payout-settings.js';

/** Merchants: create, list, read, rename, suspend and resume. */
const MerchantPage = Page(MerchantView);
const Name = Type.String({ minLength: 1, maxLength: 200, description: 'display name, 1-200 characters' });
const Params = IdParams('merchant');

export async function merchantAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<MerchantAdmin>): Promise<void> {
  app.post(
    '/merchants',
    {
      schema: {
        ...WRITE,
        operationId: 'createMerchant',
        summary: 'Create a merchant',
        description: 'A new merchant, active, without keys or wallets. Create its keys and open its wallets next.',
        body: Type.Object({ name: Name }, { additionalProperties: false }),
        response: responses(201, MerchantView, 'The new merchant (active).', ERRORS.adminWrite),
      },
    },
    async (req, reply) =>
      send(reply, 201, MerchantView, 'merchant created', await admin.createMerchant(req.body.name, auditOf(req))),
  );

  app.get(
    '/merchants',
    {
      schema: {
        ...READ,
        operationId: 'listMerchants',
        summary: 'List merchants, oldest first',
        description: 'Every merchant, optionally by status. Paged: pass nextCursor as cursor for the next page.',
        querystring: Query({
          ...PageQuery,
          status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
        }),
        response: responses(200, MerchantPage, 'A page of merchants.', ERRORS.adminRead),
      },
    },
    async (req, reply) => {
      const page = await admin.listMerchants({ ...pageOf(req.query), status: req.query.status });
      return send(reply, 200, MerchantPage, 'merchants', page);
    },
  );

  app.get(
    '/merchants/:id',
    {
      schema: {
        ...READ,
        operationId: 'getMerchant',
        summary: 'Read a merchant',
        description: 'Name, status and times of one merchant.',
        params: Params,
        response: responses(200, MerchantView, 'The merchant.', ERRORS.adminRead),
      },
    },
    async (req, reply) => send(reply, 200, MerchantView, 'merchant', await admin.getMerchant(req.params.id)),
  );

  app.patch(
    '/merchants/:id',
    {
      schema: {
        ...WRITE,
        operationId: 'updateMerchant',
        summary: "Change a merchant's name, underpayment tolerance or payout settings",
        description:
          'Changes the display name and/or the underpayment tolerance (percent, 0 to 5: a payment at least amountDue × (1 − tolerance) completes a checkout). The tolerance applies to checkouts created afterwards; each checkout keeps the one it was created with. Payout settings: payoutCoolingOffHours, payoutAutoApproveLimit, payoutDailyLimit (docs/payouts.md). Ids, keys and wallets stay as they are. Audited.',
        params: Params,
        body: Type.Object(
          {
            name: Type.Optional(Name),
            underpaymentTolerancePercent: Type.Optional(DecimalString('Underpayment tolerance in percent, 0 to 5')),
            ...PayoutSettingsBody,
          },
          {
            additionalProperties: false,
            minProperties: 1,
            description: 'fields to change: {"name": "..."}, {"underpaymentTolerancePercent": "0.5"}',
          },
        ),
        response: responses(200, MerchantView, 'The merchant after the change.', ERRORS.adminWrite),
      },
    },
    async (req, reply) => {
      return send(
        reply,
        200,
        MerchantView,
        'merchant updated',
        await admin.updateMerchant(req.params.id, req.body, auditOf(req)),
      );
    },
  );

  for (const [action, status, summary, description] of [
    [
      'suspend',
      'suspended',
      'Suspend a merchant: its keys are refused (403 MERCHANT_SUSPENDED) from the next request',
      'Nothing is deleted: keys, wallets and balances stay, and resuming restores access. Suspending twice is harmless.',
    ],
    [
      'resume',
      'active',
      'Resume a suspended merchant',
      'Its keys work again from the next request (unless revoked or expired). Resuming an active merchant is harmless.',
    ],
  ] as const) {
    app.post(
      `/merchants/:id/${action}`,
      {
        schema: {
          ...WRITE,
          operationId: `${action}Merchant`,
          summary,
          description,
          params: Params,
          body: NoBody,
          response: responses(200, MerchantView, 'The merchant after the change.', ERRORS.adminWrite),
        },
      },
      async (req, reply) =>
        send(
          reply,
          200,
          MerchantView,
          `merchant ${status}`,
          await admin.updateMerchant(req.params.id, { status }, auditOf(req)),
        ),
    );
  }
}
