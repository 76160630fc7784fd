import type { Scope } from '@hostpay/protocol';
import { HostpayError } from '../errors.js';
import type { ApiKeyAuth } from './ports.js';
import { ipAllowed } from './cidr.js';
import { hasScope, type TokenClaims, type TokenCodec } from './tokens.js';

/**
 * Steps e to g of authentication, once the caller has proved it holds the key's secret:
 * is the key usable, from this address, with this bearer, for this route.
 */
export function checkKeyState(key: ApiKeyAuth, clientIp: string, nowMs: number): void {
  if (key.status === 'revoked') {
    throw new HostpayError(
      'KEY_REVOKED',
      'this API key has been revoked: use another key or ask your operator for a new one',
    );
  }
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= nowMs) {
    throw new HostpayError(
      'KEY_EXPIRED',
      `this API key expired at ${key.expiresAt}: use another key or ask your operator for a new one`,
    );
  }
  if (key.merchantStatus === 'suspended') {
    throw new HostpayError('MERCHANT_SUSPENDED', 'the merchant of this API key is suspended: contact your operator');
  }
  if (key.ipAllowList !== null && !ipAllowed(key.ipAllowList, clientIp)) {
    throw new HostpayError(
      'IP_NOT_ALLOWED',
      `requests from ${clientIp} are not allowed for this API key: call from an address on its IP allow-list, or ask your operator to add this one`,
    );
  }
}

// RFC 6750 b64token after exactly one space; the scheme name is case-insensitive.
const BEARER = /^bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

export function checkBearer(authorization: string, key: ApiKeyAuth, codec: TokenCodec, nowMs: number): TokenClaims {
  const match = BEARER.exec(authorization);
  if (match === null || match[1] === undefined) {
    throw new HostpayError(
      'INVALID_TOKEN',
      'header `Authorization` must be `Bearer <token>` (the word Bearer, one space, then the token from POST /api/v1/auth/token)',
    );
  }
  const claims = codec.verify(match[1], nowMs);
  if (claims.key !== key.id || claims.sub !== key.merchantId) {
    throw new HostpayError(
      'TOKEN_KEY_MISMATCH',
      'this bearer token was issued to a different API key: send the api-key that obtained the token, or get a token with this key from POST /api/v1/auth/token',
    );
  }
  return claims;
}

/** The token grants a scope only while the key still has it, so narrowing a key takes effect at once. */
export function checkScope(scope: Scope, key: ApiKeyAuth, claims: TokenClaims | null): void {
  // The message names what lacks the scope, the key or only its token, and how to get one that has it.
  if (!key.scopes.includes(scope)) {
    throw new HostpayError(
      'SCOPE_MISSING',
      `this request needs scope \`${scope}\`, which the API key ${key.id} does not have${claims === null ? '' : ' (so no token of it has it)'}: use a key that has it — an operator widens this one (\`hostpay key update ${key.id} --scopes <list>\`) or creates one (\`hostpay key create --merchant ${key.merchantId} --scopes <list>\`), or an owner creates one on the dashboard's API keys page; \`payouts:write\` is granted only when asked for by name`,
      { requiredScope: scope },
    );
  }
  if (claims !== null && !hasScope(claims.scope, scope)) {
    throw new HostpayError(
      'SCOPE_MISSING',
      `this request needs scope \`${scope}\`, which your bearer token does not have (its key ${key.id} has it): get a new token from POST /api/v1/auth/token without \`scope\` (all of the key's scopes) or with one that includes \`${scope}\``,
      { requiredScope: scope },
    );
  }
}
