import { Type, type TSchema } from '@sinclair/typebox';
import { SAFE_METHODS } from '../auth/cookie-session.js';
import { successPageSchema, successSchema } from './success-body.js';
import type { FastifyReply } from 'fastify';
import { selectMerchant } from '../auth/merchant-selection.js';
import { principalOf } from '../auth/principal.js';
import { JSON_UTF8 } from './envelope.js';
import { useExactJsonBody } from './exact-json-body.js';
import { ERRORS, withErrorCode } from './route-schemas.js';
import type { TypedApp, RouteContext } from './route-context.js';
import { installIdempotency } from './idempotency-hook.js';
import { singleUseSignatures } from '../auth/single-use.js';
import type { AdminIdempotency } from './idempotency.js';

/**
 * What every merchant route with a JSON body shares (checkouts, events, webhook endpoints): exact
 * JSON bodies read before authentication (the signature covers them), the four headers,
 * Idempotency-Key on POSTs scoped per merchant, single-use signatures on writes, the `merchantId` parameter of platform keys, and
 * the success envelopes. Lives beside the Idempotency-Key hook it installs.
 */
export const MerchantQuery = {
  merchantId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'act for this sub-merchant (platform keys only)',
    }),
  ),
};
export const BASE_ERRORS = [
  ...ERRORS.wallets,
  'INVALID_BODY',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NOT_FOUND',
] as const;
export const WRITE_ERRORS = [...BASE_ERRORS, 'IDEMPOTENCY_CONFLICT', 'INVALID_HEADER'] as const;

export const ok = successSchema;
export const okPage = successPageSchema;

export const send = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type(JSON_UTF8).send(body);

/** Sets the scope up on `app`; returns the merchant a request acts for (its key's, or a granted sub-merchant). */
export function merchantScope(
  app: TypedApp,
  ctx: RouteContext & { idempotency?: AdminIdempotency | undefined },
  bodyLimit: number,
  example: string,
) {
  useExactJsonBody(app, bodyLimit, example);
  app.addHook('preValidation', ctx.auth.merchant);
  // A signed write runs once; the Idempotency-Key replay is decided before (auth/single-use.ts).
  const singleUse = singleUseSignatures(ctx.services, ctx.config.timestampToleranceSeconds);
  app.addHook('onRoute', (route) => {
    const writes = [route.method].flat().some((m) => !SAFE_METHODS.has(m));
    const response = route.schema?.response as Record<string, TSchema> | undefined;
    if (writes && route.schema !== undefined && response !== undefined)
      route.schema.response = withErrorCode(response, 'SIGNATURE_REUSED');
  });
  if (ctx.idempotency !== undefined)
    installIdempotency(app, ctx.idempotency, (req) => `merchant:${principalOf(req).merchantId}`, singleUse);
  else app.addHook('preHandler', singleUse);
  return (req: { principal: Parameters<typeof principalOf>[0]['principal'] }, requested: string | undefined) =>
    selectMerchant(ctx.services, principalOf(req), requested);
}
