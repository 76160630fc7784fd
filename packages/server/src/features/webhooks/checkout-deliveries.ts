import { CheckoutWebhookAttempt, SUMMARY_PATHS } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { IdParams, PageQuery, pageOf } from '../../admin/schemas.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import { HostpayError } from '../../errors.js';
import { errorResponses, SECURITY } from '../../http/route-schemas.js';
import type { TypedApp } from '../../http/route-context.js';
import { successPageBody } from '../../http/success-body.js';
import type { Db } from '../../store/store.js';
import { BASE_ERRORS, merchantScope, MerchantQuery, okPage, send, type WebhookRouteContext } from './route-kit.js';
import { attemptView } from './view.js';

/**
 * Every delivery attempt of a checkout's events (its own checkout.* events, its settlement's and
 * refund's wallet.balance_changed and refund.requested), to any endpoint, newest first: what the
 * dashboard's checkout page shows. Found by index: the checkout's events by `events.checkout_id`,
 * their attempts by event (migration 020). Another merchant's checkout is 404, like a missing one.
 */
export async function checkoutAttempts(db: Db, merchantId: string, checkoutId: string, req: PageRequest) {
  const owned = await db
    .selectFrom('checkouts')
    .select('id')
    .where('id', '=', checkoutId)
    .where('merchant_id', '=', merchantId)
    .executeTakeFirst();
  if (owned === undefined) throw new HostpayError('NOT_FOUND', `checkout ${checkoutId} does not exist`);
  const q = db
    .selectFrom('webhook_attempts')
    .innerJoin('events', 'events.id', 'webhook_attempts.event_id')
    .selectAll('webhook_attempts')
    .select('events.type')
    .where('events.checkout_id', '=', checkoutId)
    .where('events.merchant_id', '=', merchantId);
  return page(
    q,
    'webhook_attempts.attempted_at',
    req,
    (row) => ({ ...attemptView(row), endpointId: row.endpoint_id }),
    'desc',
  );
}

export async function checkoutDeliveryRoutes(app: TypedApp, ctx: WebhookRouteContext): Promise<void> {
  const merchantOf = merchantScope(app, ctx, '{}');
  app.get(
    SUMMARY_PATHS.checkoutWebhookDeliveries,
    {
      schema: {
        tags: ['webhooks'],
        operationId: 'listCheckoutWebhookDeliveries',
        summary: "The webhook delivery attempts of one checkout's events, newest first",
        description:
          "Every attempt, to any of your endpoints, of the events about this checkout: its checkout.* events, its settlement's and refund's wallet.balance_changed, refund.requested. Paginated like other lists (?limit, ?cursor; `nextCursor` in the envelope). Another merchant's checkout is 404.",
        security: SECURITY.merchant,
        params: IdParams('checkout'),
        querystring: Type.Object({ ...MerchantQuery, ...PageQuery }, { additionalProperties: false }),
        response: {
          200: okPage(CheckoutWebhookAttempt, 'Attempts, newest first.'),
          ...errorResponses(BASE_ERRORS),
        },
      },
      config: { scope: 'webhooks:write' },
    },
    async (req, reply) => {
      const result = await ctx.webhooks.checkoutAttempts(
        await merchantOf(req, req.query.merchantId),
        req.params.id,
        pageOf(req.query),
      );
      return send(reply, 200, successPageBody(result.items, result.nextCursor));
    },
  );
}
