import { PATHS, TokenEnvelope, TokenRequest } from '@hostpay/protocol';
import { Type } from '@sinclair/typebox';
import { randomUUID } from 'node:crypto';
import { keyPrincipalOf } from '../../auth/principal.js';
import { HostpayError } from '../../errors.js';
import { okBody } from '../../http/success-body.js';
import { useRawJsonBody } from '../../http/raw-json-body.js';
import { errorResponses, ERRORS, SECURITY } from '../../http/route-schemas.js';
import type { RouteContext, TypedApp } from '../../http/route-context.js';

/** Token requests are tiny; anything bigger is a mistake or an attack. */
export const TOKEN_BODY_LIMIT = 4096;

const TokenBody = Type.Object(TokenRequest.properties, {
  additionalProperties: false,
  description:
    'optional JSON object: {"expiresIn": 60..86400 seconds (default 3600), "scope": ["wallets:read", "fees:read"]}',
});

/**
 * POST /api/v1/auth/token: a bearer token for the API key that signs the request, for the key's
 * scopes or a subset of them. Authenticated by the key headers only, after the body is read
 * (the signature covers it).
 */
export async function tokenRoutes(app: TypedApp, ctx: RouteContext): Promise<void> {
  const { config, now, tokens } = ctx;
  useRawJsonBody(app, TOKEN_BODY_LIMIT);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('cache-control', 'no-store');
    done();
  });
  app.addHook('preValidation', ctx.auth.apiKey);

  app.post(
    PATHS.token,
    {
      bodyLimit: TOKEN_BODY_LIMIT,
      // Interface clients sign version 1 and need a token: accepted here (a replayed v1 capture
      // gets a token, which is worth nothing without fresh signatures; docs/security.md).
      config: { signatureV1: true },
      schema: {
        tags: ['auth'],
        operationId: 'issueToken',
        summary: 'Get a bearer token for the calling API key',
        description:
          'Signed with the key headers (`api-key`, `timestamp`, `signature` over `<timestamp>.<body>`). The body is optional: without one the token has every scope of the key and lives 3600 s. The token goes in `Authorization: Bearer` on the merchant endpoints, together with the signed key headers.',
        body: TokenBody,
        security: SECURITY.apiKey,
        response: {
          200: Type.Ref(TokenEnvelope, { description: 'A bearer token for this API key.' }),
          ...errorResponses(ERRORS.token),
        },
      },
    },
    async (req) => {
      const { key } = keyPrincipalOf(req);
      const expiresIn = req.body.expiresIn ?? config.tokenTtlSeconds;
      const scope = req.body.scope === undefined ? [...key.scopes] : [...new Set(req.body.scope)];
      const lacking = scope.filter((s) => !(key.scopes as readonly string[]).includes(s));
      if (lacking.length > 0) {
        throw new HostpayError(
          'SCOPE_MISSING',
          `this API key does not have scope ${lacking.map((s) => `\`${s}\``).join(', ')}: ask only for its scopes (${key.scopes.join(', ')}), or omit scope to get all of them`,
          { missingScopes: lacking },
        );
      }
      const iat = Math.floor(now() / 1000);
      const exp = iat + expiresIn;
      const accessToken = tokens.issue({
        sub: key.merchantId,
        key: key.id,
        scope: scope.join(' '),
        jti: randomUUID(),
        iat,
        exp,
      });
      return okBody('token issued', {
        accessToken,
        tokenType: 'Bearer' as const,
        expiresIn,
        expiresAt: new Date(exp * 1000).toISOString(),
        scope,
      });
    },
  );
}
