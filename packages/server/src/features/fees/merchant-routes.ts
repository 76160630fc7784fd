import { FeePreviewEnvelope, FeesPreviewQuery, parseAmount, PATHS } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { selectMerchant } from '../../auth/merchant-selection.js';
import { principalOf } from '../../auth/principal.js';
import { HostpayError } from '../../errors.js';
import { andThen, sendJsonText } from '../../http/envelope.js';
import { errorResponses, ERRORS, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';

/**
 * The merchant's fee preview (interface §2.3), behind the merchant authentication hook (added in
 * this plugin's scope). The body is finished JSON text with exact decimals, sent as it is.
 */
const feePreview200 = Type.Unsafe<string>(Type.Ref(FeePreviewEnvelope, { description: 'The fee schedule that applies and the fee for this amount.' }));

export async function feeMerchantRoutes(app: TypedApp, ctx: RouteContext): Promise<void> {
  const { services } = ctx;
  app.addHook('onRequest', ctx.auth.merchant);

  app.get(PATHS.feesPreview, {
    schema: {
      tags: ['merchant'],
      operationId: 'previewFees',
      summary: 'Preview the fees of a hosted checkout payment',
      description: 'Which fee schedule and tier apply to this amount and currency (the merchant\'s own, else the default), converted to the settlement currency when it differs, and the fee that results. Amounts are exact decimals written as JSON numbers.',
      querystring: FeesPreviewQuery,
      security: SECURITY.merchant,
      response: { 200: feePreview200, ...errorResponses(ERRORS.feesPreview) },
    },
    config: { scope: 'fees:read' },
  }, (req, reply) => {
    // The schema pattern admits the shape; parseAmount adds the range (> 0, <= 10^15).
    const amount = parseAmount(req.query.amount);
    if (!amount.ok) {
      throw new HostpayError('INVALID_AMOUNT', `query parameter \`amount\` ${amount.reason}: send the checkout amount as a positive decimal, e.g. amount=99.95`, { parameter: 'amount' });
    }
    // Not an async function: a cached preview is sent in the same turn (see sendJsonText).
    return andThen(selectMerchant(services, principalOf(req), req.query.merchantId), (merchantId) =>
      sendJsonText(reply, services.feePreviewBody(merchantId, amount.value, req.query.currency.toUpperCase())),
    );
  });
}
