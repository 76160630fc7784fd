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

  const walletsSchema = (operationId: string) => ({
    tags: ['merchant'],
    operationId,
    summary: 'List the wallets of the merchant',
    description: 'Every wallet of the merchant with its balance and frozen part (exact decimals written as JSON numbers: parse them losslessly), asset, chain and deposit networks. The trailing slash is optional; both paths answer the same.',
    querystring: WalletsQuery,
    security: SECURITY.merchant,
    response: { 200: walletList200, ...errorResponses(ERRORS.wallets) },
  });
  // The interface's path has the trailing slash; the other spelling is documented beside it.
  for (const [url, operationId] of [[PATHS.wallets, 'listWallets'], [PATHS.wallets.slice(0, -1), 'listWalletsWithoutSlash']] as const) {
    app.get(url, { schema: walletsSchema(operationId), config: { scope: 'wallets:read' } }, async (req, reply) => {
      const merchantId = await selectMerchant(services, principalOf(req), req.query.merchantId);
      return reply.type(JSON_UTF8).send(await services.walletListBody(merchantId));
    });
  }

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
