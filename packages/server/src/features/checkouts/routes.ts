import { Checkout, DECIMAL_FORMAT } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { ok, send } from '../../http/merchant-scope.js';
import { auditOf, type AdminRouteContext } from '../../admin/reply.js';
import { Page } from '../../admin/views.js';
import {
  CheckoutStatusQuery,
  DecimalString,
  Id,
  IdParams,
  NoBody,
  pageOf,
  PageQuery,
  Query,
  READ,
  TimeQuery,
  WRITE,
} from '../../admin/schemas.js';
import { errorResponses, ERRORS } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { successBody } from '../../http/success-body.js';
import type { CheckoutService } from './service.js';

/**
 * The operators' side of checkouts (spec/checkout.md, "Addresses and detection"): transfers from
 * a chain indexer, the exceptions to look at, and the review of checkouts in `needs_review`.
 */
const TransferView = Type.Object(
  {
    id: Type.String(),
    chain: Type.String(),
    txHash: Type.String(),
    index: Type.Integer(),
    toAddress: Type.String(),
    asset: Type.String(),
    amount: Type.Number({ format: DECIMAL_FORMAT, description: 'exact decimal' }),
    confirmations: Type.Integer(),
    blockTime: Type.Union([Type.String(), Type.Null()]),
    blockHash: Type.Union([Type.String(), Type.Null()]),
    checkoutId: Type.Union([Type.String(), Type.Null()]),
    matched: Type.Boolean(),
    retracted: Type.Boolean(),
    exception: Type.Union([Type.String(), Type.Null()], {
      description: 'unmatched, extra_payment, wrong_asset or paid_late: why an operator should look at it',
    }),
    detectedAt: Type.String(),
    updatedAt: Type.String(),
  },
  { additionalProperties: false },
);
/** A checkout as operators see it: the merchant's checkout object plus the merchant it belongs to. */
const AdminCheckout = Type.Composite(
  [
    Checkout,
    Type.Object({
      merchant: Type.Object(
        { id: Type.String(), name: Type.String() },
        { additionalProperties: false, description: 'the merchant this checkout belongs to' },
      ),
    }),
  ],
  { additionalProperties: false },
);

const Exact = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description}; exact decimal` });
const SettlePreview = Type.Object(
  {
    checkoutId: Type.String(),
    status: Type.String(),
    reason: Type.Union([Type.String(), Type.Null()]),
    merchant: Type.Object(
      { id: Type.String(), name: Type.String(), status: Type.String() },
      { additionalProperties: false, description: 'who is credited' },
    ),
    received: Type.Object(
      { asset: Type.String(), chain: Type.String(), amount: Exact('live payments in this asset and chain') },
      { additionalProperties: false, description: 'what arrived in the asset and chain the settle credits' },
    ),
    receivedIn: Type.Array(Type.String(), {
      description: 'every ASSET/CHAIN that received payments (several: name one with ?asset=&chain=)',
    }),
    value: Type.Object(
      {
        amount: Exact('the value received in the checkout currency'),
        currency: Type.String(),
        rate: Exact('units of the asset per unit of the currency'),
        rateSource: Type.String({
          description: 'locked: the rate of the checkout option; current: today’s rate (asset not offered)',
        }),
      },
      { additionalProperties: false },
    ),
    fee: Type.Object(
      {
        amount: Exact('the fee in the asset received'),
        asset: Type.String(),
        quoted: Exact('the fee as the fee preview quotes it'),
        currency: Type.String({ description: 'the currency of quoted' }),
      },
      { additionalProperties: false },
    ),
    credit: Type.Object(
      { amount: Exact('what the settle credits: received minus the fee'), asset: Type.String(), chain: Type.String() },
      { additionalProperties: false },
    ),
    wallet: Type.Object(
      {
        id: Type.Union([Type.String(), Type.Null()]),
        exists: Type.Boolean({ description: 'false: the settle creates the wallet' }),
        active: Type.Boolean({ description: 'false: the wallet is inactive (it is credited all the same)' }),
        balance: Type.Union([Exact('balance before the credit'), Type.Null()]),
      },
      { additionalProperties: false, description: 'the wallet the credit goes to' },
    ),
  },
  { additionalProperties: false },
);
const SettleQuery = Type.Object(
  {
    asset: Type.Optional(Type.String({ maxLength: 12 })),
    chain: Type.Optional(Type.String({ maxLength: 12 })),
  },
  { additionalProperties: false },
);

const TransferOutcome = Type.Object(
  {
    created: Type.Optional(Type.Boolean()),
    transfer: TransferView,
    checkout: Type.Union([Type.Ref(Checkout), Type.Null()]),
  },
  { additionalProperties: false },
);

const TransferBody = Type.Object(
  {
    chain: Type.String({ minLength: 1, maxLength: 12, description: 'chain symbol, e.g. ETH' }),
    txHash: Type.String({ minLength: 1, maxLength: 128 }),
    index: Type.Integer({
      minimum: 0,
      description: 'output index (BTC) or log index (EVM/TRON tokens); 0 for a native transfer',
    }),
    toAddress: Type.String({ minLength: 1, maxLength: 128 }),
    asset: Type.String({ minLength: 1, maxLength: 12 }),
    amount: DecimalString('Amount moved, in the asset'),
    confirmations: Type.Integer({ minimum: 0 }),
    blockTime: Type.Optional(
      Type.String({ maxLength: 64, description: 'ISO 8601; decides whether a payment was on time' }),
    ),
    blockHash: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);

const WRITE_ERRORS = [
  ...ERRORS.adminWrite,
  'INVALID_AMOUNT',
  'CHECKOUT_STATE_CONFLICT',
  'NO_RATE',
  'NO_FEE_SCHEDULE',
  'RATE_STALE',
] as const;

export async function checkoutAdminRoutes(
  app: TypedApp,
  { admin }: AdminRouteContext<{ checkouts: CheckoutService }>,
): Promise<void> {
  const svc = admin.checkouts;

  app.post(
    '/transfers',
    {
      schema: {
        ...WRITE,
        operationId: 'reportTransfer',
        summary: 'Report a transfer seen on a chain (indexer feed)',
        description:
          'Idempotent on chain + txHash + index: a repeat may only raise confirmations. A transfer to a deposit address moves its checkout as the contract says before the answer; one to no known address is kept as unmatched. 201 for a new transfer, 200 for a repeat.',
        body: TransferBody,
        response: {
          201: ok(TransferOutcome, 'The transfer and its checkout.'),
          200: ok(TransferOutcome, 'A repeat: the transfer as it stands.'),
          ...errorResponses(WRITE_ERRORS),
        },
      },
    },
    async (req, reply) => {
      const result = await svc.reportTransfer(req.body, auditOf(req));
      return send(
        reply,
        result.created ? 201 : 200,
        successBody(result, result.created ? 'transfer recorded' : 'transfer already known'),
      );
    },
  );

  app.get(
    '/transfers',
    {
      schema: {
        ...READ,
        operationId: 'listTransfers',
        summary: 'Transfers, oldest first; ?matched=false for the unmatched ones',
        description:
          'Every reported transfer with its checkout (if any) and exception: unmatched, extra_payment, wrong_asset or paid_late. Paged with nextCursor.',
        querystring: Query({
          ...PageQuery,
          matched: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
          chain: Type.Optional(Type.String({ maxLength: 12 })),
          checkoutId: Type.Optional(Id('checkout')),
        }),
        response: { 200: ok(Page(TransferView), 'A page of transfers.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) => {
      const { matched, chain, checkoutId } = req.query;
      const page = await svc.listTransfers(
        { matched: matched === undefined ? undefined : matched === 'true', chain, checkoutId },
        pageOf(req.query),
      );
      return send(reply, 200, successBody(page, 'transfers'));
    },
  );

  app.post(
    '/transfers/:id/retract',
    {
      schema: {
        ...WRITE,
        operationId: 'retractTransfer',
        summary: 'Retract a transfer orphaned by a reorganisation',
        description:
          'The transfer stops counting; a checkout in processing whose total falls below the threshold goes back to underpaid or open (payment_retracted).',
        params: IdParams('transfer'),
        body: NoBody,
        response: {
          200: ok(TransferOutcome, 'The retracted transfer and its checkout.'),
          ...errorResponses(WRITE_ERRORS),
        },
      },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await svc.retractTransfer(req.params.id, auditOf(req)), 'transfer retracted')),
  );

  app.post(
    '/transfers/:id/attach',
    {
      schema: {
        ...WRITE,
        operationId: 'attachTransfer',
        summary: 'Give an unmatched transfer to a checkout',
        description:
          "Matches an unmatched transfer to the checkout's option on the same chain (same asset when there is one) and lets the checkout react. Audited.",
        params: IdParams('transfer'),
        body: Type.Object({ checkoutId: Id('checkout') }, { additionalProperties: false }),
        response: {
          200: ok(TransferOutcome, 'The transfer and the checkout it now pays.'),
          ...errorResponses(WRITE_ERRORS),
        },
      },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(await svc.attachTransfer(req.params.id, req.body.checkoutId, auditOf(req)), 'transfer attached'),
      ),
  );

  checkoutReviewRoutes(app, svc);
}

/** Every merchant's checkouts as operators see them, and the review of one that needs it: preview, settle, reject. */
function checkoutReviewRoutes(app: TypedApp, svc: CheckoutService): void {
  app.get(
    '/checkouts',
    {
      schema: {
        ...READ,
        operationId: 'listAllCheckouts',
        summary: 'Checkouts of every merchant, oldest first',
        description: 'Filters: merchantId, status, orderId, createdFrom, createdTo. Paged with nextCursor.',
        querystring: Query({
          ...PageQuery,
          merchantId: Type.Optional(Id('merchant')),
          status: Type.Optional(CheckoutStatusQuery('one status')),
          orderId: Type.Optional(Type.String({ maxLength: 64 })),
          createdFrom: Type.Optional(TimeQuery('created at or after')),
          createdTo: Type.Optional(TimeQuery('created before')),
        }),
        response: { 200: ok(Page(AdminCheckout), 'A page of checkouts.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, ...filter } = req.query;
      return send(
        reply,
        200,
        successBody(
          await svc.listAll(
            filter,
            pageOf({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }),
          ),
          'checkouts',
        ),
      );
    },
  );

  app.get(
    '/checkouts/:id',
    {
      schema: {
        ...READ,
        operationId: 'getAnyCheckout',
        summary: 'One checkout, any merchant',
        description: 'The checkout as its merchant sees it, plus the merchant it belongs to.',
        params: IdParams('checkout'),
        response: { 200: ok(AdminCheckout, 'The checkout.'), ...errorResponses(ERRORS.adminRead) },
      },
    },
    async (req, reply) => send(reply, 200, successBody(await svc.getAny(req.params.id))),
  );

  app.get(
    '/checkouts/:id/settle-preview',
    {
      schema: {
        ...READ,
        operationId: 'previewSettleCheckout',
        summary: 'What settling a checkout in review would credit, and to which wallet (nothing written)',
        description:
          'Computed by the same code as POST /checkouts/{id}/settle: the merchant, what arrived (amount, asset, chain), its value, the fee, the amount the settle credits, and the wallet (whether it exists and is active). ?asset=&chain= choose the payments when several assets arrived. Only in needs_review (else 409); 409 too while a refund of it is open.',
        params: IdParams('checkout'),
        querystring: SettleQuery,
        response: {
          200: ok(SettlePreview, 'The settle preview.'),
          ...errorResponses([
            ...ERRORS.adminRead,
            'CHECKOUT_STATE_CONFLICT',
            'INVALID_QUERY',
            'NO_RATE',
            'RATE_STALE',
            'INVALID_AMOUNT',
          ]),
        },
      },
    },
    async (req, reply) => send(reply, 200, successBody(await svc.settlePreview(req.params.id, req.query))),
  );

  app.post(
    '/checkouts/:id/settle',
    {
      schema: {
        ...WRITE,
        operationId: 'settleCheckout',
        summary: 'Settle a checkout in review: credit what was received minus the fee for that value',
        description:
          "Only in needs_review (else 409). Credits the value received (at the locked rate, or today's rate for an asset not offered) minus the fee for that value, in the asset received, minus what completed refunds of it already credited; 409 while a refund of it is still open. Audited.",
        params: IdParams('checkout'),
        body: Type.Object(
          {
            asset: Type.Optional(Type.String({ maxLength: 12 })),
            chain: Type.Optional(Type.String({ maxLength: 12 })),
          },
          { additionalProperties: false, description: 'which payments to credit when several assets arrived; else {}' },
        ),
        response: { 200: ok(Type.Ref(Checkout), 'The settled checkout.'), ...errorResponses(WRITE_ERRORS) },
      },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await svc.settleReview(req.params.id, req.body, auditOf(req)), 'checkout settled')),
  );

  app.post(
    '/checkouts/:id/reject',
    {
      schema: {
        ...WRITE,
        operationId: 'rejectCheckout',
        summary: 'Reject a checkout in review (invalid; nothing credited)',
        description: 'Only in needs_review (else 409). Audited.',
        params: IdParams('checkout'),
        body: NoBody,
        response: { 200: ok(Type.Ref(Checkout), 'The rejected checkout.'), ...errorResponses(WRITE_ERRORS) },
      },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await svc.rejectReview(req.params.id, auditOf(req)), 'checkout rejected')),
  );
}
