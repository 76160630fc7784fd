import { CheckoutMoney, parseAmount, REFUND_PATHS, RefundLink, type Decimal } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { IdempotencyHeaders, IdParams } from '../../admin/schemas.js';
import { HostpayError } from '../../errors.js';
import { BASE_ERRORS, merchantScope, MerchantQuery, ok, send, WRITE_ERRORS } from '../../http/merchant-scope.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { AdminIdempotency } from '../../http/idempotency.js';
import { envelopeJson } from '../../http/success-body.js';
import { RefundLinkMailBody, RefundMailBody } from './mail.js';
import { REFUND_RESULT, REFUND_SCOPE } from './payouts-port.js';
import { refundLinkJson, type RefundService } from './service.js';

export interface RefundRouteContext extends RouteContext {
  refunds: RefundService;
  idempotency?: AdminIdempotency | undefined;
}

const REFUND_ERRORS = [
  ...WRITE_ERRORS,
  'INVALID_AMOUNT',
  'INVALID_EMAIL',
  'CHECKOUT_STATE_CONFLICT',
  'REFUND_TOO_LARGE',
  'CUSTOMER_EMAIL_MISSING',
] as const;

function amountOf(value: string | number | undefined): Decimal | null {
  if (value === undefined) return null;
  const checked = parseAmount(String(value));
  if (!checked.ok)
    throw new HostpayError(
      'INVALID_AMOUNT',
      `amount ${checked.reason}: send what the payer gets back in the checkout's asset, e.g. "25.5"`,
      { field: 'amount' },
    );
  return checked.value;
}

/**
 * The merchant's refunds (spec/payouts.md, "Refunds" and "Routes"): signed JSON bodies,
 * Idempotency-Key, the scope that moves money out. A refund link is money out too (its holder
 * chooses the address, past the address book's cooling-off), so it takes the same scope.
 */
export async function refundMerchantRoutes(app: TypedApp, ctx: RefundRouteContext): Promise<void> {
  const { refunds } = ctx;
  const merchantOf = merchantScope(app, ctx, 4096, '{"amount": "25.50", "destination": "T…"}');

  app.post(
    REFUND_PATHS.refunds,
    {
      bodyLimit: 4096,
      schema: {
        tags: ['checkout'],
        operationId: 'refundCheckout',
        summary: "Refund a checkout's payer: a payout with refundOf, or a refund link",
        description:
          "Paid in the checkout's asset and chain, at most what it received minus earlier refunds (422 REFUND_TOO_LARGE, nothing frozen), for checkouts that received money (settled, needs_review, expired with payments, invalid; else 409 CHECKOUT_STATE_CONFLICT). With `destination` (an address of that chain, else 400 INVALID_ADDRESS): the payout, `refundOf` set, its total frozen in the merchant's wallet like any payout's; a checkout in review or rejected, whose money was never credited, is credited the same total in the same transaction, so the wallet is unchanged net. Without: a refund link (as POST …/refund-link answers), mailed to the payer with `sendEmail: true` (see POST …/refund-link).",
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: IdParams('checkout'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        body: RefundMailBody,
        response: {
          201: ok(REFUND_RESULT, 'The refund (a payout with refundOf), or without a destination the refund link.'),
          ...errorResponses([
            ...REFUND_ERRORS,
            'INVALID_ADDRESS',
            'DESTINATION_NOT_ACTIVE',
            'INSUFFICIENT_FUNDS',
            'PAYOUT_LIMIT',
            'WALLET_INACTIVE',
          ]),
        },
      },
      config: { scope: REFUND_SCOPE },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const { amount, destination, ...ask } = req.body;
      const result = await refunds.refund(merchantId, req.params.id, amountOf(amount)!, destination, ask);
      return result.kind === 'link'
        ? send(reply, 201, envelopeJson(refundLinkJson(result.link), 'refund link created'))
        : send(reply, 201, envelopeJson(result.json, 'refund requested'));
    },
  );

  app.post(
    REFUND_PATHS.refundLink,
    {
      bodyLimit: 1024,
      schema: {
        tags: ['checkout'],
        operationId: 'createRefundLink',
        summary: 'A refund link: the payer gives the address on the hosted page',
        description:
          "A URL on the hosted payment site (`/pay/{id}/refund/{token}`) where the payer enters an address of the checkout's chain; it works once, for 7 days. Nothing is frozen until the payer submits; then the refund is requested like POST …/refunds with that address (a payer's address skips the address book's cooling-off, not the approval above the auto-approve limit). The URL is shown only in this answer (only a hash of its token is stored), except in the payer's mail when `sendEmail` is true (that mail's body is sealed at rest, shown to operators while kept, deleted 7 days after sending); it is mailed to the payer when the body says `sendEmail: true`: to `customerEmail`, else the checkout's customerEmail (422 CUSTOMER_EMAIL_MISSING when neither is known), in the merchant's name, written in the transaction that makes the link (kept, not sent, on a sandbox or without a mail transport).",
        security: SECURITY.merchant,
        headers: IdempotencyHeaders,
        params: IdParams('checkout'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        body: RefundLinkMailBody,
        response: { 201: ok(RefundLink, 'The refund link.'), ...errorResponses(REFUND_ERRORS) },
      },
      config: { scope: REFUND_SCOPE },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      const { amount, ...ask } = req.body;
      const link = await refunds.createLink(merchantId, req.params.id, amountOf(amount), ask);
      return send(reply, 201, envelopeJson(refundLinkJson(link), 'refund link created'));
    },
  );

  app.get(
    REFUND_PATHS.refunds,
    {
      schema: {
        tags: ['checkout'],
        operationId: 'getCheckoutMoney',
        summary: "A checkout's money: received, fee, net credited, refunded, refundable, and its refunds",
        description:
          "In the checkout's asset and chain (null when nothing arrived). `refunded` counts refunds not rejected, canceled or failed; `refundable` is what POST …/refunds would accept now (0 when the checkout cannot be refunded). `refundState` (`partially refunded`, `refunded` or null) is derived from those figures: the checkout's status does not change with refunds. Each refund (a payout with refundOf), oldest first, with its status; GET /api/v1/cp/payouts/{id} has the rest.",
        security: SECURITY.merchant,
        params: IdParams('checkout'),
        querystring: Type.Object(MerchantQuery, { additionalProperties: false }),
        response: { 200: ok(CheckoutMoney, "The checkout's money and refunds."), ...errorResponses([...BASE_ERRORS]) },
      },
      config: { scope: 'payouts:read' },
    },
    async (req, reply) => {
      const merchantId = await merchantOf(req, req.query.merchantId);
      return send(reply, 200, envelopeJson(await refunds.money(merchantId, req.params.id)));
    },
  );
}
