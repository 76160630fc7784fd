import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError } from '../errors.js';
import { failedAuthBucket, withFailureLimit } from './authenticate.js';
import type { RateLimiter } from './rate-limit.js';

/**
 * Authentication of the admin API: `Authorization: Bearer <operator token>`, one of the tokens
 * configured in HOSTPAY_ADMIN_TOKEN(S). Merchant credentials mean nothing here, and operator
 * tokens mean nothing on merchant routes: the two hooks share no code path but the failure counter.
 * Both sides are hashed to SHA-256 and compared with timingSafeEqual against every configured
 * token, so neither the length nor the position of a match shows in the timing.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** Name of the operator whose token authenticated the request; null outside /admin. */
    operator: string | null;
  }
}

export interface OperatorAuthDeps {
  /** Operator tokens by operator name (`adminTokens(config)`). */
  tokens: ReadonlyMap<string, string>;
  limiter: RateLimiter;
  /** Failed authentications per minute per client address before 429. */
  failureLimit: number;
}

// The scheme, exactly one space, then one run of visible ASCII (operator tokens are free-form).
const BEARER = /^bearer ([\x21-\x7e]+)$/i;
const HOW = 'send `Authorization: Bearer <operator token>` with a token from HOSTPAY_ADMIN_TOKEN or HOSTPAY_ADMIN_TOKENS';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

export function createOperatorAuth(deps: OperatorAuthDeps): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const { limiter, failureLimit } = deps;
  const known = [...deps.tokens].map(([name, token]) => ({ name, digest: sha256(token) }));

  function identify(authorization: string | undefined): string {
    if (authorization === undefined || authorization === '') {
      throw new HostpayError('MISSING_HEADER', `missing header \`authorization\`: every admin request needs an operator token; ${HOW}`, { missing: ['authorization'] });
    }
    const match = BEARER.exec(authorization);
    const given = sha256(match?.[1] ?? '');
    let operator: string | undefined;
    for (const k of known) {
      // No early exit: every configured token is compared, whatever matched before.
      const equal = timingSafeEqual(k.digest, given);
      if (equal && operator === undefined) operator = k.name;
    }
    if (match === null || operator === undefined) {
      throw new HostpayError('INVALID_TOKEN', `operator token is not valid: ${HOW} (API keys and merchant bearer tokens are not accepted here)`);
    }
    return operator;
  }

  return async function operatorAuth(req, reply) {
    // Admin answers name merchants and keys, and once a secret: never cache them.
    reply.header('cache-control', 'no-store');
    req.operator = await withFailureLimit(
      limiter,
      failedAuthBucket('operator', req.ip),
      failureLimit,
      'too many failed authentication attempts from your address: fix the operator token, then retry after the Retry-After seconds',
      () => identify(req.headers.authorization),
    );
  };
}
