import { PATHS, WalletListEnvelope, WalletsQuery } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { selectMerchant } from '../../auth/merchant-selection.js';
import { principalOf } from '../../auth/principal.js';
import { andThen, sendJsonText } from '../../http/envelope.js';
import { errorResponses, ERRORS, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';
import type { FastRoute } from '../../http/fast-path.js';
import type { MerchantServices } from '../../auth/ports.js';

declare module '../../auth/ports.js' {
  interface MerchantServices {
    /** The full success envelope for the merchant's wallet list, as JSON text ready to send (the text itself when cached). */
    walletListBody(merchantId: string): string | Promise<string>;
  }
}

/**
 * The merchant's wallet list (interface §2.2), behind the merchant authentication hook (added in
 * this plugin's scope, so it covers exactly these routes). The body comes from the services as
 * finished JSON text and is sent as it is: re-serialising would round the exact amounts.
 */
// The 200 schema documents the envelope; the handler hands Fastify its JSON text (hence string).
const walletList200 = Type.Unsafe<string>(
  Type.Ref(WalletListEnvelope, { description: 'The wallets of the merchant.' }),
);

const SCOPE = 'wallets:read';
// An interface endpoint (interface §4.1): version-1 signatures are accepted here (config.signatureV1).
// The interface's path has the trailing slash; the other spelling is documented beside it.
const URLS = [
  [PATHS.wallets, 'listWallets'],
  [PATHS.wallets.slice(0, -1), 'listWalletsWithoutSlash'],
] as const;

/**
 * The wallet list on the fast path (http/fast-path.ts): the key's own merchant, no query. With
 * `merchantId` (even the key's own) Fastify answers, through the route below.
 */
export function walletFastRoutes(services: MerchantServices): FastRoute[] {
  return URLS.map(([url]) => ({
    path: url,
    route: url,
    scope: SCOPE,
    signatureV1: true,
    answer: (query, principal) => (query === '' ? services.walletListBody(principal.merchantId) : undefined),
  }));
}

export async function walletMerchantRoutes(app: TypedApp, ctx: RouteContext): Promise<void> {
  const { services } = ctx;
  app.addHook('onRequest', ctx.auth.merchant);
  const walletsSchema = (operationId: string) => ({
    tags: ['merchant'],
    operationId,
    summary: 'List the wallets of the merchant',
    description:
      'Every wallet of the merchant with its balance and frozen part (exact decimals written as JSON numbers: parse them losslessly), asset, chain and deposit networks. The trailing slash is optional; both paths answer the same.',
    querystring: WalletsQuery,
    security: SECURITY.merchant,
    response: { 200: walletList200, ...errorResponses(ERRORS.wallets) },
  });
  for (const [url, operationId] of URLS) {
    // Not an async function: a cached list is sent in the same turn (see sendJsonText).
    app.get(url, { schema: walletsSchema(operationId), config: { scope: SCOPE, signatureV1: true } }, (req, reply) =>
      andThen(selectMerchant(services, principalOf(req), req.query.merchantId), (merchantId) =>
        sendJsonText(reply, services.walletListBody(merchantId)),
      ),
    );
  }
}
