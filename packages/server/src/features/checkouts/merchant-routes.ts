import type { Metric } from 'prom-client';
import { Checkout, CHECKOUT_PATHS, CreateCheckoutBody, SimulatePaymentBody } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import type { AdminIdempotency } from '../../http/idempotency.js';
import { BASE_ERRORS, merchantScope, MerchantQuery, ok, okPage, send } from '../../http/merchant-scope.js';
import {
  CheckoutStatusQuery,
  IdempotencyHeaders,
  IdParams,
  PageQuery,
  pageOf,
  TimeQuery,
} from '../../admin/schemas.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { envelopeJson, successBody, successPageBody } from '../../http/success-body.js';
import type { CheckoutService } from './service.js';

/** What the merchant checkout routes need beyond the common route context. */
export interface CheckoutRouteContext extends RouteContext {
  checkouts: CheckoutService;
  idempotency?: AdminIdempotency | undefined;
}

// Metadata (20 × 540 characters), description, URLs and options fit well inside this.
const CHECKOUT_BODY_LIMIT = 32 * 1024;
const CREATE_ERRORS = [
  ...BASE_ERRORS,
  'INVALID_AMOUNT',
  'INVALID_CURRENCY',
  'INVALID_URL',
  'IDEMPOTENCY_CONFLICT',
  'INVALID_HEADER',
  'UNSUPPORTED_CURRENCY',
  'NO_FEE_SCHEDULE',
  'NO_RATE',
  'NO_PAYABLE_OPTION',
  'RATE_STALE',
] as const;
const one = (description: string) => ok(Type.Ref(Checkout), description);
const many = okPage(Type.Ref(Checkout), 'Checkouts, newest first.');

/**
 * The merchant's checkouts (spec/checkout.md, "Merchant endpoints"): authenticated with the four
 * headers after the body is read (the signature covers it), Idempotency-Key on the POSTs, scoped
 * per merchant and shared by every instance through the store.
 */
export async function checkoutMerchantRoutes(app: TypedApp, ctx: CheckoutRouteContext): Promise<void> {
  const checkouts = ctx.checkouts;
  for (const metric of checkouts.metrics.collectors() as (Metric & { name: string })[])
    if (ctx.metrics.registry.getSingleMetric(metric.name) === undefined) ctx.metrics.registry.registerMetric(metric);
  const merchantOf = merchantScope(app, ctx, CHECKOUT_BODY_LIMIT, '{"amount": "100.00", "currency": "EUR"}');

  app.post(
    CHECKOUT_PATHS.checkouts,
    {
      bodyLimit: CHECKOUT_BODY_LIMIT,
      schema: {
        tags: ['checkout'],
        operationId: 'createCheckout',
        summary: 'Create a hosted checkout',
        description:
          'Prices one payment option per asset and chain (amountDue at a rate locked until expiresAt, fee as the fee preview computes it), hands each a fresh deposit address and returns the checkout with the URL of its payment page. Body signed like every request; amounts as JSON numbers or strings, read exactly.',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        body: CreateCheckoutBody,
        response: { 201: one('The new checkout.'), ...errorResponses(CREATE_ERRORS) },
      },
      config: { scope: 'checkout:write' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      return send(reply, 201, envelopeJson(await checkouts.createJson(merchantId, req.body), 'checkout created'));
    },
  );

  app.get(
    CHECKOUT_PATHS.checkouts,
    {
      schema: {
        tags: ['checkout'],
        operationId: 'listCheckouts',
        summary: 'List checkouts, newest first',
        description:
          'Filters: status, orderId, paymentLinkId, invoiceId, createdFrom (inclusive), createdTo (exclusive). `result` is an array; the envelope carries `nextCursor` (null on the last page), sent back as ?cursor=.',
        security: SECURITY.merchant,
        querystring: Type.Object(
          {
            ...MerchantQuery,
            ...PageQuery,
            status: Type.Optional(CheckoutStatusQuery('one status')),
            orderId: Type.Optional(Type.String({ maxLength: 64 })),
            paymentLinkId: Type.Optional(Type.String({ maxLength: 64, description: 'made by this payment link' })),
            invoiceId: Type.Optional(Type.String({ maxLength: 64, description: 'paying this invoice' })),
            createdFrom: Type.Optional(TimeQuery('created at or after (inclusive)')),
            createdTo: Type.Optional(TimeQuery('created before (exclusive)')),
          },
          { additionalProperties: false },
        ),
        response: { 200: many, ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'checkout:read' },
    },
    async (req, reply) => {
      const { merchantId: asked, limit, cursor, ...filter } = req.query;
      const merchantId = await merchantOf(req, asked);
      const result = await checkouts.listForMerchant(
        merchantId,
        filter,
        pageOf({ ...(limit === undefined ? {} : { limit }), ...(cursor === undefined ? {} : { cursor }) }),
      );
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );

  app.get(
    CHECKOUT_PATHS.checkout,
    {
      schema: {
        tags: ['checkout'],
        operationId: 'getCheckout',
        summary: "One checkout (another merchant's id is 404)",
        description: 'The checkout with its payment options (address, amountDue, received), payments and timeline.',
        security: SECURITY.merchant,
        params: IdParams('checkout'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        response: { 200: one('The checkout.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'checkout:read' },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await checkouts.get(await merchantOf(req, req.query.merchantId), req.params.id))),
  );

  checkoutActionRoutes(app, ctx, merchantOf);
}

/** What a merchant does to one checkout: cancel it, or (sandbox) simulate its payment. */
function checkoutActionRoutes(
  app: TypedApp,
  ctx: CheckoutRouteContext,
  merchantOf: ReturnType<typeof merchantScope>,
): void {
  const checkouts = ctx.checkouts;

  app.post(
    CHECKOUT_PATHS.cancel,
    {
      bodyLimit: 1024,
      schema: {
        tags: ['checkout'],
        operationId: 'cancelCheckout',
        summary: 'Cancel an open checkout (409 once anything was paid)',
        description:
          'Only while `open`; any other status is 409 CHECKOUT_STATE_CONFLICT. A payment that arrives later puts the checkout in review (paid_late).',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: IdParams('checkout'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        body: Type.Object({}, { additionalProperties: false, description: 'no body, or {}' }),
        response: {
          200: one('The canceled checkout.'),
          ...errorResponses([...BASE_ERRORS, 'IDEMPOTENCY_CONFLICT', 'INVALID_HEADER', 'CHECKOUT_STATE_CONFLICT']),
        },
      },
      config: { scope: 'checkout:write' },
    },
    async (req, reply) =>
      send(
        reply,
        200,
        successBody(
          await checkouts.cancel(await merchantOf(req, req.query.merchantId), req.params.id),
          'checkout canceled',
        ),
      ),
  );

  app.post(
    CHECKOUT_PATHS.simulatePayment,
    {
      bodyLimit: 4096,
      schema: {
        tags: ['checkout'],
        operationId: 'simulatePayment',
        summary: 'Sandbox: pay a checkout as if a chain indexer saw it',
        description:
          "Only on a sandbox server (404 otherwise). Goes through the same code as the operators' transfers endpoint.",
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: IdParams('checkout'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        body: SimulatePaymentBody,
        response: {
          200: one('The checkout after the payment.'),
          ...errorResponses([...BASE_ERRORS, 'INVALID_AMOUNT', 'IDEMPOTENCY_CONFLICT', 'INVALID_HEADER']),
        },
      },
      config: { scope: 'checkout:write' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const { amount, ...rest } = req.body;
      const body = { ...rest, ...(amount === undefined ? {} : { amount: String(amount) }) };
      return send(
        reply,
        200,
        successBody(await checkouts.simulatePayment(merchantId, req.params.id, body), 'payment simulated'),
      );
    },
  );
}
