import {
  Checkout,
  CreatePaymentLinkBody,
  PAYMENT_LINK_PATHS,
  PaymentLink,
  UpdatePaymentLinkBody,
} from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { IdempotencyHeaders, IdParams, PageQuery, pageOf } from '../../admin/schemas.js';
import type { AdminIdempotency } from '../../http/idempotency.js';
import {
  BASE_ERRORS,
  merchantScope,
  MerchantQuery,
  ok,
  okPage,
  send,
  WRITE_ERRORS,
} from '../../http/merchant-scope.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import { envelopeJson, successBody, successPageBody } from '../../http/success-body.js';
import type { PaymentLinkService } from './service.js';

export interface PaymentLinkRouteContext extends RouteContext {
  paymentLinks: PaymentLinkService;
  idempotency?: AdminIdempotency | undefined;
}

const BODY_LIMIT = 32 * 1024;
const CREATE_ERRORS = [
  ...WRITE_ERRORS,
  'INVALID_AMOUNT',
  'INVALID_URL',
  'INVALID_CURRENCY',
  'UNSUPPORTED_CURRENCY',
] as const;
const one = (description: string) => ok(Type.Ref(PaymentLink), description);
const page = (description: string, item: typeof PaymentLink | typeof Checkout) => okPage(Type.Ref(item), description);
const Query = Type.Object(MerchantQuery, { additionalProperties: false });
const paging = (q: { limit?: number | undefined; cursor?: string | undefined }) =>
  pageOf({
    ...(q.limit === undefined ? {} : { limit: q.limit }),
    ...(q.cursor === undefined ? {} : { cursor: q.cursor }),
  });

/**
 * The merchant's payment links (spec/commerce.md, "Payment links"): signed JSON bodies,
 * Idempotency-Key on the POST, scopes links:read and links:write; the link's checkouts take
 * checkout:read. Another merchant's link is 404.
 */
export async function paymentLinkMerchantRoutes(app: TypedApp, ctx: PaymentLinkRouteContext): Promise<void> {
  const links = ctx.paymentLinks;
  const merchantOf = merchantScope(app, ctx, BODY_LIMIT, '{"name": "Donation", "currency": "EUR", "minAmount": "1"}');

  app.post(
    PAYMENT_LINK_PATHS.links,
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['payment-links'],
        operationId: 'createPaymentLink',
        summary: 'Create a payment link',
        description:
          "A reusable page, `url` = <public base>/l/{slug}, that makes a fresh checkout for each payer. The price is `amount`, or the sum of `lineItems` (a different `amount` is 400 INVALID_AMOUNT), or typed by the payer within `minAmount`/`maxAmount`; amounts at most the currency's decimals. Event payment_link.created.",
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        querystring: Query,
        body: CreatePaymentLinkBody,
        response: { 201: one('The new payment link.'), ...errorResponses(CREATE_ERRORS) },
      },
      config: { scope: 'links:write' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      return send(reply, 201, envelopeJson(await links.create(merchantId, req.body), 'payment link created'));
    },
  );

  app.get(
    PAYMENT_LINK_PATHS.links,
    {
      schema: {
        tags: ['payment-links'],
        operationId: 'listPaymentLinks',
        summary: 'List payment links, newest first',
        description: 'Filter: active (true or false). `nextCursor` (null on the last page) goes back as ?cursor=.',
        security: SECURITY.merchant,
        querystring: Type.Object(
          {
            ...MerchantQuery,
            ...PageQuery,
            active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
          },
          { additionalProperties: false },
        ),
        response: { 200: page('Payment links, newest first.', PaymentLink), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'links:read' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const result = await links.list(merchantId, paging(req.query), {
        active: req.query.active === undefined ? undefined : req.query.active === 'true',
      });
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );

  app.get(
    PAYMENT_LINK_PATHS.link,
    {
      schema: {
        tags: ['payment-links'],
        operationId: 'getPaymentLink',
        summary: "One payment link (another merchant's id is 404)",
        description: '`uses` counts its settled checkouts; `status` is active, inactive, expired or used_up.',
        security: SECURITY.merchant,
        params: IdParams('payment link'),
        querystring: Query,
        response: { 200: one('The payment link.'), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'links:read' },
    },
    async (req, reply) =>
      send(reply, 200, successBody(await links.get(await merchantOf(req, req.query.merchantId), req.params.id))),
  );

  app.patch(
    PAYMENT_LINK_PATHS.link,
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['payment-links'],
        operationId: 'updatePaymentLink',
        summary: 'Change a payment link (not its price)',
        description:
          'Only name, description, active, maxUses, expiresAt, successUrl, cancelUrl and metadata (null clears the nullable ones); any other field is 400. Checkouts already made keep what they were made with. Event payment_link.updated.',
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: IdParams('payment link'),
        querystring: Query,
        body: UpdatePaymentLinkBody,
        response: { 200: one('The payment link as changed.'), ...errorResponses([...WRITE_ERRORS, 'INVALID_URL']) },
      },
      config: { scope: 'links:write' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      return send(
        reply,
        200,
        envelopeJson(await links.update(merchantId, req.params.id, req.body), 'payment link updated'),
      );
    },
  );

  app.get(
    PAYMENT_LINK_PATHS.checkouts,
    {
      schema: {
        tags: ['payment-links'],
        operationId: 'listPaymentLinkCheckouts',
        summary: "The link's checkouts, newest first",
        description: 'As GET /api/v1/cp/psp/hosted-pay?paymentLinkId={id}, and 404 for an unknown link.',
        security: SECURITY.merchant,
        params: IdParams('payment link'),
        querystring: Type.Object({ ...MerchantQuery, ...PageQuery }, { additionalProperties: false }),
        response: { 200: page("The link's checkouts, newest first.", Checkout), ...errorResponses(BASE_ERRORS) },
      },
      config: { scope: 'checkout:read' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const result = await links.checkoutsOf(merchantId, req.params.id, paging(req.query));
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );
}
