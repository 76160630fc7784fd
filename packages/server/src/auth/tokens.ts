import { createSigner, createVerifier, TokenError } from 'fast-jwt';
import { lazyLru } from '../lazy.js';
import { HostpayError } from '../errors.js';

/**
 * Bearer tokens: HS256 JWTs bound to the API key that obtained them. `key` is the API key id,
 * `sub` its merchant, `scope` the granted scopes space-separated (RFC 9068 style).
 */
export const TOKEN_ISSUER = 'hostpay';

export interface TokenClaims {
  iss: string;
  sub: string;
  key: string;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
}

export interface TokenCodec {
  issue(claims: Omit<TokenClaims, 'iss'>): string;
  /** Verified claims, or a HostpayError: TOKEN_EXPIRED, else INVALID_TOKEN. */
  verify(token: string, nowMs: number): TokenClaims;
}

const HOW_TO_GET = 'get a new one from POST /api/v1/auth/token';

export function createTokenCodec(signingKey: Buffer): TokenCodec {
  const sign = createSigner({ key: signingKey, algorithm: 'HS256', iss: TOKEN_ISSUER });
  const verify = createVerifier({
    key: signingKey,
    algorithms: ['HS256'],
    allowedIss: TOKEN_ISSUER,
    requiredClaims: ['sub', 'key', 'scope', 'jti', 'iat', 'exp'],
  });
  // Tokens verified once and answered from memory until they expire (or are evicted), keyed by
  // the token itself: fast-jwt's own cache keys by a SHA-256 of it, 2 % of a checkout create's CPU.
  // Only tokens that passed every check below get in, so a client cannot fill it with junk.
  const verified = lazyLru<string, TokenClaims>({ max: 10_000 });
  return {
    issue: (claims) => sign({ ...claims }),
    verify(token, nowMs) {
      let claims = verified().get(token);
      if (claims === undefined) {
        try {
          claims = verify(token) as TokenClaims;
        } catch (err) {
          if (err instanceof TokenError && err.code === TokenError.codes.expired) throw expired();
          throw new HostpayError(
            'INVALID_TOKEN',
            `bearer token is not valid (not issued by this server, altered or malformed): ${HOW_TO_GET}`,
          );
        }
        if (typeof claims.key !== 'string' || typeof claims.sub !== 'string' || typeof claims.scope !== 'string') {
          throw new HostpayError('INVALID_TOKEN', `bearer token lacks the claims this server issues: ${HOW_TO_GET}`);
        }
        verified().set(token, claims);
      }
      // fast-jwt checks expiry against the system clock; this keeps the server's own clock authoritative.
      if (claims.exp * 1000 <= nowMs) {
        verified().delete(token);
        throw expired();
      }
      return claims;
    },
  };
}

function expired(): HostpayError {
  return new HostpayError('TOKEN_EXPIRED', `bearer token has expired: ${HOW_TO_GET}`);
}

/** True when the space-separated `list` contains `scope` as a whole word; allocates nothing. */
export function hasScope(list: string, scope: string): boolean {
  let i = list.indexOf(scope);
  while (i !== -1) {
    const end = i + scope.length;
    if ((i === 0 || list.charCodeAt(i - 1) === 32) && (end === list.length || list.charCodeAt(end) === 32)) return true;
    i = list.indexOf(scope, i + 1);
  }
  return false;
}
