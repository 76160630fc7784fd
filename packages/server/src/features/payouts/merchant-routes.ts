import type { Metric } from 'prom-client';
import {
  CreateDestinationBody,
  CreatePayoutBody,
  PAYOUT_PATHS,
  PAYOUT_STATUS_VALUES,
  Payout,
  PayoutDestination,
  SimulatePayoutBody,
} from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { IdempotencyHeaders, IdParams, PageQuery, pageOf } from '../../admin/schemas.js';
import {
  BASE_ERRORS,
  merchantScope,
  MerchantQuery,
  ok,
  okPage,
  send,
  WRITE_ERRORS,
} from '../../http/merchant-scope.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import type { AdminIdempotency } from '../../http/idempotency.js';
import { successBody, successPageBody } from '../../http/success-body.js';
import type { PayoutService } from './service.js';

export interface PayoutRouteContext extends RouteContext {
  payouts: PayoutService;
  idempotency?: AdminIdempotency | undefined;
}

const BODY_LIMIT = 4096;
const TAGS = ['payouts'];
const one = (description: string) => ok(Type.Ref(Payout), description);
const oneDestination = (description: string) => ok(Type.Ref(PayoutDestination), description);
const Query = Type.Object(MerchantQuery, { additionalProperties: false });
const NoBody = Type.Object({}, { additionalProperties: false, description: 'no body, or {}' });
const CREATE_ERRORS = [
  ...WRITE_ERRORS,
  'INVALID_AMOUNT',
  'INVALID_ADDRESS',
  'INSUFFICIENT_FUNDS',
  'PAYOUT_LIMIT',
  'DESTINATION_NOT_ACTIVE',
  'WALLET_INACTIVE',
] as const;
const MOVE_ERRORS = [...WRITE_ERRORS, 'PAYOUT_STATE_CONFLICT'] as const;

/**
 * The merchant's payouts and payout address book (spec/payouts.md, "Routes"): signed like every
 * merchant route, Idempotency-Key on the POSTs; writes need `payouts:write` (never granted by
 * default), reads `payouts:read`.
 */
export async function payoutMerchantRoutes(app: TypedApp, ctx: PayoutRouteContext): Promise<void> {
  const payouts = ctx.payouts;
  for (const metric of payouts.metrics.collectors() as (Metric & { name: string })[])
    if (ctx.metrics.registry.getSingleMetric(metric.name) === undefined) ctx.metrics.registry.registerMetric(metric);
  const merchantOf = merchantScope(
    app,
    ctx,
    BODY_LIMIT,
    '{"walletId": "wal_…", "amount": "10", "destinationId": "dst_…"}',
  );

  app.post(
    PAYOUT_PATHS.payouts,
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: TAGS,
        operationId: 'createPayout',
        summary: 'Request a payout to an active destination of your address book',
        description:
          "Freezes total = amount + the operator's network fee estimate (422 INSUFFICIENT_FUNDS unless balance − frozen ≥ total; nothing is frozen on any refusal). Approved at once when total ≤ your auto-approve limit, else pending_approval. 422 PAYOUT_LIMIT past the rolling 24 h limit of the asset; 422 DESTINATION_NOT_ACTIVE while a destination cools off or after it was revoked (another merchant's destination is 404).",
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        querystring: Query,
        body: CreatePayoutBody,
        response: { 201: one('The new payout.'), ...errorResponses(CREATE_ERRORS) },
      },
      config: { scope: 'payouts:write' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      return send(reply, 201, successBody(await payouts.create(merchantId, req.body), 'payout requested'));
    },
  );

  app.get(
    PAYOUT_PATHS.payouts,
    {
      schema: {
        tags: TAGS,
        operationId: 'listPayouts',
        summary: 'List payouts, newest first',
        description: 'Filter: status. `result` is an array; the envelope carries `nextCursor` (null on the last page).',
        security: SECURITY.merchant,
        querystring: Type.Object(
          {
            ...MerchantQuery,
            ...PageQuery,
            status: Type.Optional(Type.Union(PAYOUT_STATUS_VALUES.map((s) => Type.Literal(s)))),
          },
          { additionalProperties: false },
        ),
        response: { 200: okPage(Type.Ref(Payout), 'Payouts, newest first.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'payouts:read' },
    },
    async (req, reply) => {
      const { merchantId: asked, limit, cursor, status } = req.query;
      const merchantId = await merchantOf(req, asked);
      const result = await payouts.listForMerchant(
        merchantId,
        { status },
        pageOf({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }),
      );
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );

  app.get(
    PAYOUT_PATHS.payout,
    {
      schema: {
        tags: TAGS,
        operationId: 'getPayout',
        summary: "One payout (another merchant's id is 404)",
        description: 'The payout with its timeline.',
        security: SECURITY.merchant,
        params: IdParams('payout'),
        querystring: Query,
        response: { 200: one('The payout.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'payouts:read' },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await payouts.get(await merchantOf(req, req.query.merchantId), req.params.id))),
  );

  app.post(
    PAYOUT_PATHS.cancel,
    {
      bodyLimit: 1024,
      schema: {
        tags: TAGS,
        operationId: 'cancelPayout',
        summary: 'Cancel a payout that is pending_approval or approved (its total is unfrozen)',
        description: 'Any other status is 409 PAYOUT_STATE_CONFLICT.',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: IdParams('payout'),
        querystring: Query,
        body: NoBody,
        response: { 200: one('The canceled payout.'), ...errorResponses(MOVE_ERRORS) },
      },
      config: { scope: 'payouts:write' },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await payouts.cancel(await merchantOf(req, req.query.merchantId), req.params.id),
          'payout canceled',
        ),
      ),
  );

  app.post(
    PAYOUT_PATHS.simulate,
    {
      bodyLimit: 1024,
      schema: {
        tags: TAGS,
        operationId: 'simulatePayout',
        summary: 'Sandbox: move an approved payout through sent to completed or failed',
        description: 'Only on a sandbox server (404 otherwise). Only an approved payout (else 409).',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: IdParams('payout'),
        querystring: Query,
        body: SimulatePayoutBody,
        response: { 200: one('The payout after the outcome.'), ...errorResponses(MOVE_ERRORS) },
      },
      config: { scope: 'payouts:write' },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await payouts.simulate(await merchantOf(req, req.query.merchantId), req.params.id, req.body.outcome),
          'payout simulated',
        ),
      ),
  );

  destinationRoutes(app, ctx, merchantOf);
}

/** A merchant's saved payout destinations: add, list, remove. */
function destinationRoutes(app: TypedApp, ctx: PayoutRouteContext, merchantOf: ReturnType<typeof merchantScope>): void {
  const payouts = ctx.payouts;

  app.post(
    PAYOUT_PATHS.destinations,
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: TAGS,
        operationId: 'createPayoutDestination',
        summary: 'Add an address to your payout address book (it cools off before use)',
        description:
          'The address is checked for its chain (400 INVALID_ADDRESS; the zero address and known burn addresses too, `details.reason` `burn_address`). The destination is cooling_off for your cooling-off period (default 24 h) unless an operator activates it; adding one emits payout_destination.added. An address already in the book on that chain (not revoked; EVM compared by its EIP-55 spelling) is not added twice: 200 with the existing entry, unchanged (its status, activeFrom and label).',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        querystring: Query,
        body: CreateDestinationBody,
        response: {
          200: oneDestination('The address was already in the book: its existing entry, unchanged.'),
          201: oneDestination('The new destination.'),
          ...errorResponses([...WRITE_ERRORS, 'INVALID_ADDRESS']),
        },
      },
      config: { scope: 'payouts:write' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const { created, destination } = await payouts.addOrFindDestination(merchantId, req.body);
      return created
        ? send(reply, 201, successBody(destination, 'destination added'))
        : send(reply, 200, successBody(destination, 'this address is already in your payout address book'));
    },
  );

  app.get(
    PAYOUT_PATHS.destinations,
    {
      schema: {
        tags: TAGS,
        operationId: 'listPayoutDestinations',
        summary: 'List your payout destinations, newest first',
        description: '`result` is an array; the envelope carries `nextCursor` (null on the last page).',
        security: SECURITY.merchant,
        querystring: Type.Object({ ...MerchantQuery, ...PageQuery }, { additionalProperties: false }),
        response: {
          200: okPage(Type.Ref(PayoutDestination), 'Destinations, newest first.'),
          ...errorResponses(BASE_ERRORS),
        },
      },
      config: { scope: 'payouts:read' },
    },
    async (req, reply) => {
      const { merchantId: asked, limit, cursor } = req.query;
      const merchantId = await merchantOf(req, asked);
      const result = await payouts.listDestinations(
        merchantId,
        pageOf({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }),
      );
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );

  app.delete(
    PAYOUT_PATHS.destination,
    {
      schema: {
        tags: TAGS,
        operationId: 'revokePayoutDestination',
        summary: 'Revoke a payout destination (it can no longer be paid)',
        description: 'Emits payout_destination.revoked. Payouts already requested to it are not changed.',
        security: SECURITY.merchant,
        params: IdParams('payout destination'),
        querystring: Query,
        response: {
          200: oneDestination('The revoked destination.'),
          ...errorResponses([...BASE_ERRORS, 'PAYOUT_STATE_CONFLICT']),
        },
      },
      config: { scope: 'payouts:write' },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await payouts.revokeDestination(await merchantOf(req, req.query.merchantId), req.params.id),
          'destination revoked',
        ),
      ),
  );
}
