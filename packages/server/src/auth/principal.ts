import type { Scope } from '@hostpay/protocol';
import { HostpayError } from '../errors.js';
import { checkScope } from './key-checks.js';
import type { ApiKeyAuth } from './ports.js';
import type { Role, SessionPrincipal } from './session-principal.js';
import type { TokenClaims } from './tokens.js';

export type { Role, SessionPrincipal };

/** Signed in with the four headers: an API key and its bearer token. */
export interface KeyPrincipal {
  via: 'key';
  /** The key's merchant (a platform key may act for granted sub-merchants: merchant-selection.ts). */
  merchantId: string;
  key: ApiKeyAuth;
  /** The verified bearer token; null on the token route, which authenticates by key alone. */
  token: TokenClaims | null;
}

/** Who is calling, as established by the authentication hook, for the route handler. */
export type Principal = KeyPrincipal | SessionPrincipal;

/** A dashboard route's access rule (route option `config.dashboard`): the roles allowed. */
export interface DashboardRoute {
  roles: readonly Role[];
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
    /** A session-only /dashboard/api route and the roles allowed on it (the `auth.dashboard` hook). */
    dashboard?: DashboardRoute;
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

/** The principal of a route only API keys reach (the token route, key management by key). */
export function keyPrincipalOf(req: { principal: Principal | null }): KeyPrincipal {
  const principal = principalOf(req);
  if (principal.via !== 'key') throw new Error('key-only route reached with a session');
  return principal;
}

/** The principal of a session-only route (`auth.dashboard`). */
export function sessionPrincipalOf(req: { principal: Principal | null }): SessionPrincipal {
  const principal = principalOf(req);
  if (principal.via !== 'session') throw new Error('session route reached without a session');
  return principal;
}

/**
 * The one authorisation decision, whatever the way in: the route's scope against the principal's.
 * A key's token grants a scope only while the key still has it (key-checks.ts); a session's scopes
 * are its user's role's, read with the session on every request, so a role change acts at once.
 */
export function authorize(scope: Scope, principal: Principal): void {
  if (principal.via === 'key') {
    checkScope(scope, principal.key, principal.token);
    return;
  }
  if (!principal.scopes.includes(scope)) {
    throw new HostpayError(
      'SCOPE_MISSING',
      `this request needs scope \`${scope}\`, which the ${principal.role} role does not have: ask an owner of your team for a role that has it`,
      { requiredScope: scope },
    );
  }
}
