import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { HostpayError } from '../errors.js';
import { SAFE_METHODS } from './cookie-session.js';
import type { SignedHeaders } from './credentials.js';
import { failedAuthBucket, withFailureLimit } from './failure-limit.js';
import { createKeyDecision, MAX_KEY_ID_LENGTH, type RequestFacts, readHeaders } from './key-decision.js';
import type { ApiKeyAuth, MerchantServices, MerchantSessionPort } from './ports.js';
import { authorize, type KeyPrincipal, type Principal } from './principal.js';
import type { RateLimiter, RateLimitResult } from './rate-limit.js';
import { csrfFailed, keyRateLimited, sessionRequired } from './refusals.js';
import type { V1Notice } from './signature-deprecation.js';
import type { TokenCodec } from './tokens.js';

export interface AuthDeps {
  config: Config;
  services: MerchantServices;
  now: () => number;
  limiter: RateLimiter;
  tokens: TokenCodec;
  /**
   * The merchant dashboard's sessions (features/merchant-users): with them, a session cookie (and
   * `x-csrf-token` on writes) is a second way into the merchant routes. Absent: signed headers only.
   */
  sessions?: MerchantSessionPort | undefined;
  /** What an answer to a version-1 request carries and counts (auth/signature-deprecation.ts). */
  v1Notice?: V1Notice | undefined;
}

type Hook = (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

const factsOf = (req: FastifyRequest): RequestFacts => ({
  method: req.method,
  url: req.url,
  rawBody: req.rawBody,
  ip: req.ip,
  scope: req.routeOptions.config.scope,
  signatureV1: req.routeOptions.config.signatureV1 === true,
});

const MINUTE = 60_000;

/**
 * The authentication hooks, in PRODUCT.md order: headers, timestamp, key + signature (timing
 * uniform), key state, bearer, scope; then the per-key rate limit. A client address with too many
 * failed attempts is turned away before any of it. `merchant` requires a bearer; `apiKey` (token
 * route) does not. The result is `request.principal`.
 */
export function createAuthHooks(deps: AuthDeps): {
  merchant: Hook;
  apiKey: Hook;
  dashboard: Hook;
  repeatedNow: (headers: IncomingHttpHeaders, facts: RequestFacts, nowMs: number) => KeyPrincipal | undefined;
  admitNow: (principal: KeyPrincipal) => RateLimitResult | Promise<RateLimitResult> | undefined;
  v1Notice: V1Notice | undefined;
} {
  const { config, services, now, limiter } = deps;
  const failureLimit = config.authFailureLimitPerMinute;
  const sessions = deps.sessions;
  const { identify, decide, repeatOf } = createKeyDecision(deps);

  /**
   * A session request: a live, fully signed-in session (failures count towards the address's
   * failed-authentication limit like bad signatures do), the CSRF token on every write, then the
   * same authorisation as signed requests (the route's scope against the role's scopes) or, on a
   * dashboard route, its roles; then the per-user rate limit.
   */
  async function fromSession(
    req: FastifyRequest,
    reply: FastifyReply,
    sessionId: string,
    dashboard: readonly string[] | undefined,
  ): Promise<void> {
    const port = sessions!;
    const principal = await withFailureLimit(
      limiter,
      failedAuthBucket('merchant', req.ip),
      failureLimit,
      'too many failed authentication attempts from your address: sign in again, then retry after the Retry-After seconds',
      () => port.principal(sessionId),
    );
    if (!SAFE_METHODS.has(req.method)) {
      const given = req.headers['x-csrf-token'];
      if (!port.csrfMatches(sessionId, typeof given === 'string' ? given : undefined)) throw csrfFailed();
    }
    const scope = req.routeOptions.config.scope;
    if (scope !== undefined) authorize(scope, principal);
    if (dashboard !== undefined && !dashboard.includes(principal.role)) {
      throw new HostpayError(
        'ROLE_FORBIDDEN',
        `this needs one of the roles ${dashboard.join(', ')}; you are ${principal.role}: ask an owner of your team`,
        { roles: dashboard },
      );
    }
    await admit(req, reply, principal);
  }

  /** The hook of session-only routes (/dashboard/api): route option `config.dashboard` names the roles allowed. */
  function dashboardHook(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
    reply.header('cache-control', 'no-store');
    const rule = req.routeOptions.config.dashboard;
    if (rule === undefined) {
      done(new Error(`dashboard route ${req.routeOptions.url} has no config.dashboard`));
      return;
    }
    const sessionId = sessions?.idOf(req);
    if (sessionId === undefined) {
      done(sessionRequired());
      return;
    }
    fromSession(req, reply, sessionId, rule.roles).then(() => done(), done);
  }

  /**
   * The key lookup, then the decision under the failed-attempt gate. The lookup (a store query
   * when the key is not cached: after a restart, while Redis is down) runs before the gate, so
   * only the decision — synchronous — holds one of its slots: slow lookups of valid requests never
   * fill the slots and turn others away with 429. The gate still bounds what it is
   * for: however many attempts arrive at once, at most the limit can fail per window.
   */
  function identifyGated(
    req: RequestFacts,
    headers: SignedHeaders | Error,
    withBearer: boolean,
    nowMs: number,
  ): Promise<KeyPrincipal> {
    const found =
      headers instanceof Error || headers.apiKey.length > MAX_KEY_ID_LENGTH
        ? undefined
        : services.findApiKey(headers.apiKey);
    const gated = (key: ApiKeyAuth | undefined) =>
      withFailureLimit(
        limiter,
        failedAuthBucket('merchant', req.ip),
        failureLimit,
        'too many failed authentication attempts from your address: fix the credentials, then retry after the Retry-After seconds',
        () => identify(req, headers, key, withBearer, nowMs),
      );
    return found instanceof Promise ? found.then(gated) : gated(found);
  }

  /**
   * The request repeats credentials accepted moments ago (a body-less request of the same second,
   * same key, timestamp, signature and Authorization): decided without waiting on anything when
   * the key is in the cache (the usual case), and without the failed-attempt gate in any case.
   * Returns the principal, a promise of it (key not cached), or undefined (not a repeat).
   */
  function repeated(
    req: RequestFacts,
    h: SignedHeaders | Error,
    withBearer: boolean,
    nowMs: number,
  ): KeyPrincipal | Promise<KeyPrincipal> | undefined {
    if (h instanceof Error) return undefined;
    const repeat = repeatOf(h, req, nowMs);
    if (repeat === undefined) return undefined;
    const { cacheId, entry, found } = repeat;
    // The entry counts only for the secret it was checked with (a rotated secret misses).
    const settle = (key: ApiKeyAuth | undefined) =>
      decide(
        req,
        h,
        key,
        cacheId,
        key !== undefined && entry.secret === key.secret ? entry : undefined,
        withBearer,
        nowMs,
      );
    return found instanceof Promise ? found.then(settle) : settle(found);
  }

  /** A key's rate-limit bucket and its limit per minute (its own, else the server's). */
  const keyLimit = (key: ApiKeyAuth) => ({
    bucket: `key:${key.id}`,
    limit: key.rateLimitPerMinute ?? config.rateLimitPerMinute,
  });

  /** After the principal: last-used time, the per-key rate limit and its headers. */
  function admit(req: FastifyRequest, reply: FastifyReply, principal: Principal): void | Promise<void> {
    let bucket: string;
    let limit: number;
    if (principal.via === 'key') {
      services.touchKey(principal.key.id);
      ({ bucket, limit } = keyLimit(principal.key));
    } else {
      // A dashboard user has the server's per-minute limit, counted per user.
      bucket = `user:${principal.userId}`;
      limit = config.rateLimitPerMinute;
    }
    const finish = (rate: RateLimitResult): void => {
      reply.header('ratelimit-limit', limit);
      reply.header('ratelimit-remaining', rate.remaining);
      reply.header('ratelimit-reset', rate.resetSeconds);
      if (!rate.allowed) throw keyRateLimited(rate);
      req.principal = principal;
    };
    // The in-process limiter answers at once; a shared one (Redis) is awaited.
    if (limiter.hitNow !== undefined) return finish(limiter.hitNow(bucket, limit, MINUTE));
    const reserved = limiter.hitReserved?.(bucket, limit, MINUTE);
    if (reserved !== undefined) return finish(reserved);
    return limiter.hit(bucket, limit, MINUTE).then(finish);
  }

  /**
   * The hook. A callback hook rather than an async function: a request that repeats accepted
   * credentials with its key cached (nearly every request of a busy client) is decided
   * synchronously, with no promise and no microtask turn, and `done` runs before it returns.
   */
  function authenticate(
    req: FastifyRequest,
    reply: FastifyReply,
    withBearer: boolean,
    done: (err?: Error) => void,
  ): void {
    let pending: Promise<void> | void;
    try {
      reply.header('cache-control', 'no-store');
      // The second way in: a dashboard session cookie, looked at only when no `api-key` is sent,
      // so a request with both is judged by its signed headers alone (and the signed path reads
      // nothing more than this one header).
      const sessionId =
        withBearer && sessions !== undefined && req.headers['api-key'] === undefined ? sessions.idOf(req) : undefined;
      if (sessionId !== undefined) {
        fromSession(req, reply, sessionId, undefined).then(() => done(), done);
        return;
      }
      const nowMs = now();
      const headers = readHeaders(req.headers, withBearer);
      const facts = factsOf(req);
      // Requests that repeat accepted credentials skip the gate: otherwise a client sending more
      // than the failure limit in parallel from one address (a busy backend) would queue on it,
      // and every cached request would pay the gate's round trips to Redis.
      const principal = repeated(facts, headers, withBearer, nowMs) ?? identifyGated(facts, headers, withBearer, nowMs);
      const notice = !(headers instanceof Error) && headers.version === 1 ? deps.v1Notice : undefined;
      const proceed = (p: KeyPrincipal) => {
        if (notice !== undefined) announceV1(reply, notice, p.key.id);
        return admit(req, reply, p);
      };
      pending = principal instanceof Promise ? principal.then(proceed) : proceed(principal);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (pending === undefined) done();
    else pending.then(() => done(), done);
  }

  /**
   * For the fast path (http/fast-path.ts): the principal of a merchant request that repeats
   * accepted credentials and passes every check now (timestamp, key cached and of the same
   * secret, signature version, key state and address, bearer, scope), exactly as the hook would
   * decide it. Anything else (a first request, a key not cached, any refusal) is undefined, with
   * nothing counted or changed: the caller hands the request to the hook, which decides and
   * answers it. Pure: no limiter, no cache write, no last-used time.
   */
  function repeatedNow(headers: IncomingHttpHeaders, facts: RequestFacts, nowMs: number): KeyPrincipal | undefined {
    try {
      const h = readHeaders(headers, true);
      if (h instanceof Error) return undefined;
      const repeat = repeatOf(h, facts, nowMs);
      if (repeat === undefined) return undefined;
      const { cacheId, entry, found: key } = repeat;
      if (key instanceof Promise) {
        key.catch(() => undefined); // the hook asks again and answers whatever it finds
        return undefined;
      }
      if (key === undefined || entry.secret !== key.secret) return undefined;
      return decide(facts, h, key, cacheId, entry, true, nowMs);
    } catch {
      return undefined;
    }
  }

  /**
   * For the fast path: counts the request against its key's per-minute limit and records the
   * key's use, as `admit` does, and returns the count's result. The in-process limiter answers at
   * once and only within the limit: over it, undefined and nothing counted or touched, so the
   * hook counts and refuses it as usual. A shared limiter (Redis) answers a round trip later,
   * allowed or not, the request counted either way (the caller then answers the 429 itself).
   */
  function admitNow(principal: KeyPrincipal): RateLimitResult | Promise<RateLimitResult> | undefined {
    const key = principal.key;
    const { bucket, limit } = keyLimit(key);
    if (limiter.hitIfAllowedNow !== undefined) {
      const rate = limiter.hitIfAllowedNow(bucket, limit, MINUTE);
      if (rate !== undefined) services.touchKey(key.id);
      return rate;
    }
    // An in-process limiter without the variant that does not count a refusal: the hook's way.
    if (limiter.hitNow !== undefined) return undefined;
    services.touchKey(key.id);
    return limiter.hitReserved?.(bucket, limit, MINUTE) ?? limiter.hit(bucket, limit, MINUTE);
  }

  return {
    merchant: (req, reply, done) => authenticate(req, reply, true, done),
    // The token route: API keys only (a session has no key to issue a token for).
    apiKey: (req, reply, done) => authenticate(req, reply, false, done),
    dashboard: dashboardHook,
    repeatedNow,
    admitNow,
    v1Notice: deps.v1Notice,
  };
}

/** The deprecation headers of an accepted version-1 request, and its count. */
function announceV1(reply: FastifyReply, notice: V1Notice, keyId: string): void {
  reply.header('deprecation', notice.headers.deprecation);
  reply.header('sunset', notice.headers.sunset);
  reply.header('link', notice.headers.link);
  notice.count(keyId);
}
