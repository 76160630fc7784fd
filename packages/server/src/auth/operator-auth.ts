import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError } from '../errors.js';
import { failedAuthBucket, withFailureLimit } from './failure-limit.js';
import type { RateLimiter } from './rate-limit.js';
import { ipAllowed } from './cidr.js';

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
  /** HOSTPAY_ADMIN_IP_ALLOW_LIST parsed; null: any address. Checked before anything else. */
  allowList?: readonly string[] | null;
  /** Cookie sessions (the console's): with them, a session cookie (plus x-csrf-token on writes) stands in for the bearer token. */
  sessions?: OperatorSessions | undefined;
}

/** What the operator hook needs of a cookie session store (features/console provides one). */
export interface OperatorSessions {
  /** The session id the request's cookie carries, if any. */
  idOf(req: { headers: { cookie?: string | undefined }; protocol: string }): string | undefined;
  /** The operator of a live session (and marks it used), or undefined. */
  check(sessionId: string): Promise<{ operator: string } | undefined>;
  /** Whether `given` is the session's CSRF token (constant time). */
  csrfMatches(sessionId: string, given: string | undefined): boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses a client address outside the operator allow-list (admin API, console pages and session routes alike). */
export function checkOperatorAddress(allowList: readonly string[] | null | undefined, ip: string): void {
  if (allowList === null || allowList === undefined) return;
  if (!ipAllowed(allowList, ip)) {
    throw new HostpayError(
      'IP_NOT_ALLOWED',
      `requests from ${ip} are not allowed on the operator API and console: call from an address on HOSTPAY_ADMIN_IP_ALLOW_LIST`,
    );
  }
}

// The scheme, exactly one space, then one run of visible ASCII (operator tokens are free-form).
const BEARER = /^bearer ([\x21-\x7e]+)$/i;
const HOW =
  'send `Authorization: Bearer <operator token>` with a token from HOSTPAY_ADMIN_TOKEN or HOSTPAY_ADMIN_TOKENS';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The operator whose token `given` is, or undefined; the same work whatever matches. */
export function tokenMatcher(tokens: ReadonlyMap<string, string>): (given: string) => string | undefined {
  const known = [...tokens].map(([name, token]) => ({ name, digest: sha256(token) }));
  return (text) => {
    const given = sha256(text);
    let operator: string | undefined;
    for (const k of known) {
      // No early exit: every configured token is compared, whatever matched before.
      const equal = timingSafeEqual(k.digest, given);
      if (equal && operator === undefined) operator = k.name;
    }
    return operator;
  };
}

export function createOperatorAuth(
  deps: OperatorAuthDeps,
): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const { limiter, failureLimit } = deps;
  const operatorOf = tokenMatcher(deps.tokens);

  function identify(authorization: string | undefined): string {
    if (authorization === undefined || authorization === '') {
      throw new HostpayError(
        'MISSING_HEADER',
        `missing header \`authorization\`: every admin request needs an operator token; ${HOW}`,
        { missing: ['authorization'] },
      );
    }
    const match = BEARER.exec(authorization);
    const operator = operatorOf(match?.[1] ?? '');
    if (match === null || operator === undefined) {
      throw new HostpayError(
        'INVALID_TOKEN',
        `operator token is not valid: ${HOW} (API keys and merchant bearer tokens are not accepted here)`,
      );
    }
    return operator;
  }

  /** The operator of a console session; writes must carry the session's CSRF token. */
  async function fromSession(req: FastifyRequest, sessionId: string): Promise<string> {
    const session = await deps.sessions?.check(sessionId);
    if (session === undefined)
      throw new HostpayError(
        'INVALID_TOKEN',
        'the console session has ended (signed out, idle too long, or the operator token changed): sign in again at /console',
      );
    if (!SAFE_METHODS.has(req.method)) {
      const given = req.headers['x-csrf-token'];
      if (!deps.sessions!.csrfMatches(sessionId, typeof given === 'string' ? given : undefined)) {
        throw new HostpayError(
          'CSRF_TOKEN_INVALID',
          "a console write must carry the session's CSRF token in `x-csrf-token` (from POST or GET /console/session)",
        );
      }
    }
    return session.operator;
  }

  return async function operatorAuth(req, reply) {
    // Admin answers name merchants and keys, and once a secret: never cache them.
    reply.header('cache-control', 'no-store');
    checkOperatorAddress(deps.allowList, req.ip);
    const sessionId =
      deps.sessions === undefined || req.headers.authorization !== undefined ? undefined : deps.sessions.idOf(req);
    req.operator = await withFailureLimit(
      limiter,
      failedAuthBucket('operator', req.ip),
      failureLimit,
      'too many failed authentication attempts from your address: fix the operator token, then retry after the Retry-After seconds',
      () => (sessionId === undefined ? identify(req.headers.authorization) : fromSession(req, sessionId)),
    );
  };
}
