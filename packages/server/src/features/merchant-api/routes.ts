import { FeePreviewEnvelope, FeesPreviewQuery, parseAmount, PATHS, WalletListEnvelope, WalletsQuery } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { selectMerchant } from '../../auth/merchant-selection.js';
import { principalOf } from '../../auth/principal.js';
import { HostpayError } from '../../errors.js';
import { JSON_UTF8 } from '../../http/envelope.js';
import { errorResponses, ERRORS, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';

/**
 * The two merchant endpoints of the interface. Registered as a plugin so the authentication hook
 * covers exactly these routes. Bodies come from the services as finished JSON text and are sent
 * as they are: re-serialising would round the exact decimal amounts.
 */
// The 200 schema documents the envelope; the handler hands Fastify its JSON text (hence string).
const walletList200 = Type.Unsafe<string>(Type.Ref(WalletListEnvelope, { description: 'The wallets of the merchant.' }));
const feePreview200 = Type.Unsafe<string>(Type.Ref(FeePreviewEnvelope, { description: 'The fee schedule that applies and the fee for this amount.' }));

export async function merchantRoutes(app: TypedApp, ctx: RouteContext): Promise<void> {
  const { services } = ctx;
  app.addHook('onRequest', ctx.auth.merchant);

  const walletsSchema = {
    tags: ['merchant'],
    summary: 'List the wallets of the merchant',
    description: 'The trailing slash is optional; both paths answer the same.',
    querystring: WalletsQuery,
    security: SECURITY.merchant,
    response: { 200: walletList200, ...errorResponses(ERRORS.wallets) },
  };
  for (const url of [PATHS.wallets, PATHS.wallets.slice(0, -1)]) {
    app.get(url, { schema: walletsSchema, config: { scope: 'wallets:read' } }, async (req, reply) => {
      const merchantId = await selectMerchant(services, principalOf(req), req.query.merchantId);
      return reply.type(JSON_UTF8).send(await services.walletListBody(merchantId));
    });
  }

  app.get(PATHS.feesPreview, {
    schema: {
      tags: ['merchant'],
      summary: 'Preview the fees of a hosted checkout payment',
      querystring: FeesPreviewQuery,
      security: SECURITY.merchant,
      response: { 200: feePreview200, ...errorResponses(ERRORS.feesPreview) },
    },
    config: { scope: 'fees:read' },
  }, async (req, reply) => {
    // The schema pattern admits the shape; parseAmount adds the range (> 0, <= 10^15).
    const amount = parseAmount(req.query.amount);
    if (!amount.ok) {
      throw new HostpayError('INVALID_AMOUNT', `query parameter \`amount\` ${amount.reason}: send the checkout amount as a positive decimal, e.g. amount=99.95`, { parameter: 'amount' });
    }
    const merchantId = await selectMerchant(services, principalOf(req), req.query.merchantId);
    const body = await services.feePreviewBody(merchantId, amount.value, req.query.currency.toUpperCase());
    return reply.type(JSON_UTF8).send(body);
  });
}
