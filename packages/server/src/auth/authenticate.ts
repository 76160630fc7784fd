import type { IncomingHttpHeaders } from 'node:http';
import { isIPv6 } from 'node:net';
import type { Scope } from '@hostpay/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { unmapIPv4 } from './cidr.js';
import type { Config } from '../config.js';
import { HostpayError } from '../errors.js';
import type { ApiKeyAuth, MerchantServices, MerchantSessionPort } from './ports.js';
import { checkTimestamp, readSignedHeaders, type SignedHeaders } from './credentials.js';
import { checkBearer, checkKeyState } from './key-checks.js';
import { SAFE_METHODS } from './cookie-session.js';
import type { RateLimiter, RateLimitResult } from './rate-limit.js';
import {
  DUMMY_SECRET,
  isWellFormedSignature,
  signatureDiagnostics,
  signatureMatches,
  type SignedRequest,
} from './signature.js';
import { authorize, type KeyPrincipal, type Principal } from './principal.js';
import type { TokenCodec } from './tokens.js';
import { VerifiedCache, type VerifiedEntry } from './verified-cache.js';
import type { V1Notice } from './signature-deprecation.js';

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

/** What authentication reads of a request besides its headers (from Fastify's request, or the raw one on the fast path). */
export interface RequestFacts {
  method: string;
  /** The request target as received (path and query): what a version-2 signature covers. */
  url: string;
  rawBody: string;
  /** The client address, as IP allow-lists see it. */
  ip: string;
  /** The scope the route requires. */
  scope: Scope | undefined;
  /** The route accepts version-1 signatures (route option `config.signatureV1`). */
  signatureV1: boolean;
}

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
 * The per-address counter of failed authentications. Merchant and operator failures are counted
 * apart, so a merchant integration that fails does not lock an operator at the same address out.
 */
export const failedAuthBucket = (side: 'merchant' | 'operator', ip: string): string =>
  `authfail:${side}:${addressBlock(ip)}`;

/**
 * Runs `attempt` under the failed-authentication limit of `bucket`. A slot is reserved before
 * the attempt is evaluated (RateLimiter.reserve; slow work such as the key lookup is done before,
 * so a slot is held only while deciding): failures plus attempts in flight never exceed
 * `limit`, so however many attempts arrive at once, at most `limit` can fail per window and the
 * others get 429 without being looked at. Legitimate bursts are not refused: an attempt that finds
 * every slot in flight waits for one to settle. With Redis the slots are shared by every instance
 * (one Lua script each to take and to settle); without it, each instance counts its own.
 */
export async function withFailureLimit<T>(
  limiter: RateLimiter,
  bucket: string,
  limit: number,
  message: string,
  attempt: () => Promise<T> | T,
): Promise<T> {
  const slot = await limiter.reserve(bucket, limit, MINUTE);
  // A turned-away attempt was not evaluated and does not count.
  if (!slot.allowed) throw rateLimited(slot.result, message);
  try {
    const result = await attempt();
    slot.settle(false);
    return result;
  } catch (err) {
    // Only "who are you?" failures count: they are what guessing keys or signatures produces.
    slot.settle(err instanceof HostpayError && err.status === 401);
    throw err;
  }
}

/**
 * The unit failed attempts are counted by: an IPv4 address, or the /64 of an IPv6 address (one
 * subscriber usually holds a whole /64 and could otherwise rotate through it).
 */
export function addressBlock(ip: string): string {
  const address = unmapIPv4(ip);
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('%', 1)[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return (
    groups
      .slice(0, 4)
      .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
      .join(':') + '::/64'
  );
}
// Keys are looked up by id; anything longer is no id of ours and is not worth a store query.
const MAX_KEY_ID_LENGTH = 128;

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
  const { config, services, now, limiter, tokens } = deps;
  const tolerance = config.timestampToleranceSeconds;
  const failureLimit = config.authFailureLimitPerMinute;
  const verified = new VerifiedCache();
  const sessions = deps.sessions;

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
   * fill the slots and turn others away with 429 (issue 32). The gate still bounds what it is
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

  /** `headers`: the request's signed headers as read once, or why they could not be (thrown here, inside the gate). */
  function identify(
    req: RequestFacts,
    headers: SignedHeaders | Error,
    key: ApiKeyAuth | undefined,
    withBearer: boolean,
    nowMs: number,
  ): KeyPrincipal {
    if (headers instanceof Error) throw headers;
    const h = headers;
    checkTimestamp(h.timestamp, nowMs, tolerance, config.sandbox);
    const cacheId = verifiedCacheId(h, req);
    const hit =
      key !== undefined && cacheId !== undefined
        ? verified.get(key.id, h.timestamp, cacheId, key.secret, h.authorization, nowMs)
        : undefined;
    return decide(req, h, key, cacheId, hit, withBearer, nowMs);
  }

  /** What follows the key lookup: signature (or the verified entry), key state, bearer, scope. */
  function decide(
    req: RequestFacts,
    h: SignedHeaders,
    key: ApiKeyAuth | undefined,
    cacheId: string | undefined,
    hit: VerifiedEntry | undefined,
    withBearer: boolean,
    nowMs: number,
  ): KeyPrincipal {
    const signed: SignedRequest = {
      version: h.version,
      timestamp: h.timestamp,
      method: req.method,
      target: req.url,
      rawBody: req.rawBody,
    };
    // An unknown key gets the same HMAC work (dummy secret) as a wrong signature: same timing.
    const matches = hit !== undefined || signatureMatches(key?.secret ?? DUMMY_SECRET, signed, h.signature);
    if (key === undefined) {
      throw new HostpayError(
        'UNKNOWN_API_KEY',
        'header `api-key` names no API key of this server: check that you send the key id (it starts with hp_), not the secret, and that it belongs to this environment',
      );
    }
    if (!matches)
      throw signatureError(h.signature, h.version, config.sandbox ? signatureDiagnostics(signed) : undefined);
    // Checked after the signature, so only a holder of the secret (or a replayer of a signature
    // that already went over the wire) learns that version 2 is needed. A version-1 signature names
    // neither method nor path, so a capture of any v1 request would pass on every route with the
    // same body (every body-less POST and DELETE): it is accepted only where the interface requires
    // it (and the token endpoint), and there only when the key allows it.
    if (h.version === 1 && (!req.signatureV1 || key.requireSignatureV2)) throw signatureV2Required(req.signatureV1);
    // Key state is checked on every request, cached or not: revoking or suspending acts at once.
    checkKeyState(key, req.ip, nowMs);
    const token = withBearer ? (hit?.claims ?? checkBearer(h.authorization, key, tokens, nowMs)) : null;
    const principal: KeyPrincipal = { via: 'key', merchantId: key.merchantId, key, token };
    if (req.scope !== undefined) authorize(req.scope, principal);
    if (hit === undefined && cacheId !== undefined) {
      const windowEnd = (Number(h.timestamp) + tolerance) * 1000;
      const expiresAt = token === null ? windowEnd : Math.min(windowEnd, token.exp * 1000);
      verified.set(key.id, h.timestamp, cacheId, {
        secret: key.secret,
        authorization: h.authorization,
        claims: token,
        expiresAt,
      });
    }
    return principal;
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

  /**
   * The accepted-credentials entry a request repeats (undefined: not a repeat), with its key as
   * the key cache has it (a value, or a promise when not cached). A stale timestamp throws.
   */
  function repeatOf(h: SignedHeaders, req: RequestFacts, nowMs: number) {
    const cacheId = verifiedCacheId(h, req);
    const entry =
      cacheId === undefined ? undefined : verified.find(h.apiKey, h.timestamp, cacheId, h.authorization, nowMs);
    if (cacheId === undefined || entry === undefined) return undefined;
    checkTimestamp(h.timestamp, nowMs, tolerance, config.sandbox);
    return { cacheId, entry, found: h.apiKey.length <= MAX_KEY_ID_LENGTH ? services.findApiKey(h.apiKey) : undefined };
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

/** 401 SESSION_REQUIRED: no live dashboard session. */
export function sessionRequired(): HostpayError {
  return new HostpayError(
    'SESSION_REQUIRED',
    'no live dashboard session (signed out, idle too long, past its 12 hours, or never signed in): sign in at /dashboard',
  );
}

/** 403 CSRF_FAILED: a write made with a session cookie but without its CSRF token. */
export function csrfFailed(): HostpayError {
  return new HostpayError(
    'CSRF_FAILED',
    "a write made with the dashboard session must carry the session's CSRF token in `x-csrf-token` (from GET /dashboard/api/session)",
  );
}

const V2_HOW =
  'send `signature-version: 2` and sign `<timestamp>.<METHOD>.<path?query>.<body>` (see docs/api.md, Authentication)';
const V2_FOR_KEY = `this API key accepts only version-2 signatures: ${V2_HOW}`;
const V2_FOR_ROUTE = `this endpoint accepts only version-2 signatures (version 1 only on GET /api/v1/cp/wallets/, GET /api/v1/cp/psp/hosted-pay/fees-preview and POST /api/v1/auth/token): ${V2_HOW}`;

/** The 401 of a correct version-1 signature where version 2 is required (by the route, or by the key). */
function signatureV2Required(routeAcceptsV1: boolean): HostpayError {
  return new HostpayError('SIGNATURE_V2_REQUIRED', routeAcceptsV1 ? V2_FOR_KEY : V2_FOR_ROUTE);
}

function signatureError(
  signature: string,
  version: 1 | 2,
  diagnostics: Record<string, unknown> | undefined,
): HostpayError {
  const what = isWellFormedSignature(signature)
    ? 'signature does not match'
    : 'header `signature` must be 64 lowercase hexadecimal characters';
  const how =
    version === 2
      ? 'sign the string `<timestamp>.<METHOD>.<path?query>.<body>` (canonical path and query as in docs/api.md; body empty for GET)'
      : 'sign the string `<timestamp>.<body>` (the timestamp header, a dot, then the exact body; empty for GET)';
  const hint =
    diagnostics === undefined
      ? ''
      : ' (sandbox: details.signedStringSha256 is the SHA-256 of the string the server verified; compare it with yours)';
  return new HostpayError(
    'INVALID_SIGNATURE',
    `${what}: ${how} with your API secret, HMAC-SHA256, lowercase hex${hint}`,
    diagnostics,
  );
}

/** The 429 of a key over its per-minute limit. */
export function keyRateLimited(rate: RateLimitResult): HostpayError {
  return rateLimited(
    rate,
    `this API key is limited to ${rate.limit} requests a minute: retry after the Retry-After seconds`,
  );
}

export function rateLimited(rate: RateLimitResult, message: string): HostpayError {
  return new HostpayError(
    'RATE_LIMITED',
    message,
    { limit: rate.limit, retryAfterSeconds: rate.resetSeconds },
    { 'retry-after': String(rate.resetSeconds) },
  );
}

/** Targets longer than this are verified every time rather than cached (entries stay small). */
const MAX_CACHED_TARGET = 2048;

/**
 * The verified-credentials cache key of a body-less request, or undefined when it must not be
 * cached: a body, a signature that is not 64 hex characters, or a very long target. The version is
 * part of the key, and a version-2 signature is good for one method and target only: without the
 * hex check, a version-1 `signature` header spelling a version-2 key ("<hex> 2 GET /path") would
 * find that entry and replay a v2 signature on another route.
 */
function verifiedCacheId(h: SignedHeaders, req: RequestFacts): string | undefined {
  if (req.rawBody !== '' || !isWellFormedSignature(h.signature) || req.url.length > MAX_CACHED_TARGET) return undefined;
  return h.version === 2 ? `2 ${h.signature} ${req.method} ${req.url}` : `1 ${h.signature}`;
}

/** The signed headers, or the error saying which are missing (raised later, inside the failure gate). */
function readHeaders(headers: IncomingHttpHeaders, withBearer: boolean): SignedHeaders | Error {
  try {
    return readSignedHeaders(headers, withBearer);
  } catch (err) {
    return err as Error;
  }
}
