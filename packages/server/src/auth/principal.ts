import type { Scope } from '@hostpay/protocol';
import type { ApiKeyAuth } from './ports.js';
import type { TokenClaims } from './tokens.js';

/** Who is calling, as established by the authentication hook, for the route handler. */
export interface Principal {
  key: ApiKeyAuth;
  /** The verified bearer token; null on the token route, which authenticates by key alone. */
  token: TokenClaims | null;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a protected route requires (route option `config.scope`). */
    scope?: Scope;
    /**
     * The route also accepts version-1 signatures (`<timestamp>.<body>`, which names neither the
     * method nor the path): only the interface's two GET endpoints and the token endpoint set it.
     * Every other route answers a correct version-1 signature with 401 SIGNATURE_V2_REQUIRED, so a
     * captured v1 request cannot be replayed onto a route that writes or returns a secret.
     */
    signatureV1?: true;
  }
  interface FastifyRequest {
    /** Set by the authentication hook; null on public routes. */
    principal: Principal | null;
    /** The request body exactly as received ('' when there is none): what the signature covers. */
    rawBody: string;
  }
}

/** The principal of a request on a protected route; a route without the hook is a bug (500). */
export function principalOf(req: { principal: Principal | null }): Principal {
  if (req.principal === null) throw new Error('route reached without authentication');
  return req.principal;
}
