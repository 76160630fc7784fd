import {
  DECIMAL_FORMAT,
  DESTINATION_STATUS_VALUES,
  PAYOUT_STATUS_VALUES,
  Payout,
  PayoutDestination,
} from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { auditOf, type AdminRouteContext } from '../../admin/reply.js';
import { DecimalString, Id, IdParams, NoBody, pageOf, PageQuery, Query, READ, WRITE } from '../../admin/schemas.js';
import { Page } from '../../admin/views.js';
import { ok, send } from '../../http/merchant-scope.js';
import { errorResponses, ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { successBody } from '../../http/success-body.js';
import type { PayoutService } from './service.js';

const Exact = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description} (exact decimal)` });
/** A payout as operators see it: the merchant's object plus the merchant it belongs to. */
const AdminPayout = Type.Composite(
  [
    Payout,
    Type.Object({
      merchantId: Type.String(),
      merchant: Type.Object(
        { id: Type.String(), name: Type.String() },
        { description: 'The merchant the payout belongs to (its id is also merchantId).' },
      ),
    }),
  ],
  {
    additionalProperties: false,
  },
);
const AdminDestination = Type.Composite([PayoutDestination, Type.Object({ merchantId: Type.String() })], {
  additionalProperties: false,
});
const ExportRow = Type.Object(
  {
    id: Type.String(),
    merchantId: Type.String(),
    chain: Type.String(),
    network: Type.String(),
    asset: Type.String(),
    contract: Type.Union([Type.String(), Type.Null()], { description: 'token contract; null for the native coin' }),
    amount: Exact('what to send to the destination'),
    networkFee: Exact("the operator's fee estimate, in the asset"),
    destination: Type.String(),
    reference: Type.Union([Type.String(), Type.Null()]),
    refundOf: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
const ExportView = Type.Object(
  {
    format: Type.Union([Type.Literal('json'), Type.Literal('csv')]),
    count: Type.Integer(),
    items: Type.Array(ExportRow),
    csv: Type.Union([Type.String(), Type.Null()], {
      description: 'format=csv: the same rows as CSV text with a header line (jq -r .result.csv); else null',
    }),
  },
  { additionalProperties: false },
);
const NetworkFeeView = Type.Object(
  {
    chain: Type.String(),
    asset: Type.String(),
    networkFee: Exact('the estimate frozen with every payout of this asset on this chain'),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

const MOVE_ERRORS = [...ERRORS.adminWrite, 'PAYOUT_STATE_CONFLICT', 'INSUFFICIENT_FUNDS', 'INVALID_AMOUNT'] as const;
const Reason = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false, description: 'why (shown to the merchant)' },
);

/**
 * The operators' side of payouts (spec/payouts.md, "Routes" and "Sending"): the queue, approval,
 * the manual sender (export, sent, complete, fail), destinations and network fee estimates.
 * Every write is audited in the transaction that makes it.
 */
export async function payoutAdminRoutes(app: TypedApp, { admin }: AdminRouteContext<{ payouts: PayoutService }>) {
  const svc = admin.payouts;

  app.get(
    '/payouts',
    {
      schema: {
        ...READ,
        operationId: 'listAllPayouts',
        summary: 'Payouts of every merchant, oldest first',
        description: 'Filters: status, merchantId, chain. Paged with nextCursor.',
        querystring: Query({
          ...PageQuery,
          status: Type.Optional(Type.Union(PAYOUT_STATUS_VALUES.map((s) => Type.Literal(s)))),
          merchantId: Type.Optional(Id('merchant')),
          chain: Type.Optional(Type.String({ maxLength: 12 })),
        }),
        response: { 200: ok(Page(AdminPayout), 'A page of payouts.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, ...filter } = req.query;
      const page = await svc.listAll(
        filter,
        pageOf({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }),
      );
      return send(reply, 200, successBody(page, 'payouts'));
    },
  );

  app.get(
    '/payouts/export',
    {
      schema: {
        ...READ,
        operationId: 'exportApprovedPayouts',
        summary: "The manual sender's queue: approved payouts, oldest first, as JSON rows or CSV",
        description:
          'What an operator pays from its own wallet or custodian; then POST /payouts/{id}/sent with the txHash. ?chain= narrows to one chain; ?format=csv adds the CSV text.',
        querystring: Query({
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')])),
          chain: Type.Optional(Type.String({ maxLength: 12 })),
        }),
        response: { 200: ok(ExportView, 'The approved payouts.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(await svc.exportApproved({ format: req.query.format ?? 'json', chain: req.query.chain }), 'export'),
      ),
  );

  app.get(
    '/payouts/:id',
    {
      schema: {
        ...READ,
        operationId: 'getAnyPayout',
        summary: 'One payout, any merchant',
        description: 'The payout as its merchant sees it (timeline included), plus its merchantId.',
        params: IdParams('payout'),
        response: { 200: ok(AdminPayout, 'The payout.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) => send(reply, 200, successBody(await svc.getAny(req.params.id))),
  );

  const moveRoute = (
    action: string,
    operationId: string,
    summary: string,
    body: Parameters<typeof Type.Object>[0] | null,
    run: (id: string, body: Record<string, string | undefined>, audit: ReturnType<typeof auditOf>) => Promise<unknown>,
  ) =>
    app.post(
      `/payouts/:id/${action}`,
      {
        schema: {
          ...WRITE,
          operationId,
          summary,
          description: `${summary}. A move the state table does not allow is 409 PAYOUT_STATE_CONFLICT. Audited.`,
          params: IdParams('payout'),
          body: body === null ? NoBody : Type.Object(body, { additionalProperties: false }),
          response: { 200: ok(AdminPayout, 'The payout after the move.'), ...errorResponses(MOVE_ERRORS) },
        },
      },
      async (req, reply) =>
        send(
          reply,
          200,
          successBody(
            await run(req.params.id, req.body as Record<string, string | undefined>, auditOf(req)),
            `payout ${action}`,
          ),
        ),
    );

  moveRoute('approve', 'approvePayout', 'Approve a payout pending approval', null, (id, _b, audit) =>
    svc.approve(id, audit),
  );
  moveRoute(
    'reject',
    'rejectPayout',
    'Reject a payout pending approval (its total is unfrozen)',
    Reason.properties,
    (id, b, audit) => svc.reject(id, b.reason!, audit),
  );
  moveRoute(
    'cancel',
    'cancelAnyPayout',
    'Cancel a payout pending approval or approved (unfrozen)',
    null,
    (id, _b, audit) => svc.cancelAny(id, audit),
  );
  moveRoute(
    'sent',
    'markPayoutSent',
    'Manual sender: report the transaction that paid an approved payout',
    {
      txHash: Type.String({ minLength: 1, maxLength: 128 }),
      networkFee: Type.Optional(DecimalString('the actual network fee, in the asset (default: the estimate)')),
    },
    (id, b, audit) => svc.markSent(id, { txHash: b.txHash!, networkFee: b.networkFee }, audit),
  );
  moveRoute(
    'complete',
    'completePayout',
    'Manual sender: confirm a sent payout arrived (debits its total)',
    { networkFee: Type.Optional(DecimalString('the actual network fee, if it differs from the one recorded')) },
    (id, b, audit) => svc.complete(id, { networkFee: b.networkFee }, audit),
  );
  moveRoute(
    'fail',
    'failPayout',
    'Mark a sent payout failed (its total is unfrozen)',
    Reason.properties,
    (id, b, audit) => svc.fail(id, b.reason!, audit),
  );

  payoutAdminSettingRoutes(app, svc);
}

/** Payout destinations across merchants (listed, activated) and the network fees payouts are charged. */
function payoutAdminSettingRoutes(app: TypedApp, svc: PayoutService): void {
  app.get(
    '/payout-destinations',
    {
      schema: {
        ...READ,
        operationId: 'listAllPayoutDestinations',
        summary: 'Payout destinations of every merchant, oldest first',
        description: 'Filters: merchantId, status (as stored: a cooling_off row past its activeFrom reads active).',
        querystring: Query({
          ...PageQuery,
          merchantId: Type.Optional(Id('merchant')),
          status: Type.Optional(Type.Union(DESTINATION_STATUS_VALUES.map((s) => Type.Literal(s)))),
        }),
        response: { 200: ok(Page(AdminDestination), 'A page of destinations.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, ...filter } = req.query;
      return send(
        reply,
        200,
        successBody(
          await svc.listAllDestinations(
            filter,
            pageOf({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }),
          ),
          'payout destinations',
        ),
      );
    },
  );

  app.post(
    '/payout-destinations/:id/activate',
    {
      schema: {
        ...WRITE,
        operationId: 'activatePayoutDestination',
        summary: 'End a destination’s cooling-off now',
        description: 'Emits payout_destination.activated. An active or revoked destination is 409. Audited.',
        params: IdParams('payout destination'),
        body: NoBody,
        response: {
          200: ok(Type.Ref(PayoutDestination), 'The active destination.'),
          ...errorResponses([...ERRORS.adminWrite, 'PAYOUT_STATE_CONFLICT']),
        },
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(await svc.activateDestination(req.params.id, auditOf(req)), 'destination activated'),
      ),
  );

  app.put(
    '/payout-fees',
    {
      schema: {
        ...WRITE,
        operationId: 'setPayoutNetworkFee',
        summary: 'Set the network fee estimate of payouts of an asset on a chain (in the asset; default 0)',
        description:
          'Frozen with every payout requested afterwards (total = amount + networkFee); the manual sender may report the actual fee at sent/complete. Audited.',
        body: Type.Object(
          {
            chain: Type.String({ minLength: 1, maxLength: 12 }),
            asset: Type.String({ minLength: 1, maxLength: 12 }),
            networkFee: DecimalString('the estimate, in the asset'),
          },
          { additionalProperties: false },
        ),
        response: {
          200: ok(NetworkFeeView, 'The estimate.'),
          ...errorResponses([...ERRORS.adminWrite, 'INVALID_AMOUNT']),
        },
      },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await svc.setNetworkFee(req.body, auditOf(req)), 'network fee set')),
  );

  app.get(
    '/payout-fees',
    {
      schema: {
        ...READ,
        operationId: 'listPayoutNetworkFees',
        summary: 'Network fee estimates of payouts, per chain and asset',
        description: 'Every estimate set with PUT /payout-fees; a chain and asset without one estimates 0.',
        response: { 200: ok(Type.Array(NetworkFeeView), 'Every estimate set.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (_req, reply) => send(reply, 200, successBody(await svc.listNetworkFees())),
  );
}
