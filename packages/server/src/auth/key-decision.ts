import type { IncomingHttpHeaders } from 'node:http';
import type { Scope } from '@hostpay/protocol';
import type { Config } from '../config.js';
import { HostpayError } from '../errors.js';
import { checkTimestamp, readSignedHeaders, type SignedHeaders } from './credentials.js';
import { checkBearer, checkKeyState } from './key-checks.js';
import type { ApiKeyAuth, MerchantServices } from './ports.js';
import { authorize, type KeyPrincipal } from './principal.js';
import { signatureError, signatureV2Required } from './refusals.js';
import {
  DUMMY_SECRET,
  isWellFormedSignature,
  signatureDiagnostics,
  signatureMatches,
  type SignedRequest,
} from './signature.js';
import type { TokenCodec } from './tokens.js';
import { VerifiedCache, type VerifiedEntry } from './verified-cache.js';

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

// Keys are looked up by id; anything longer is no id of ours and is not worth a store query.
export const MAX_KEY_ID_LENGTH = 128;

/**
 * The decision on a signed request once its key is looked up: timestamp, signature (or a
 * verified entry of the same credentials), key state, bearer, scope. It owns the cache of
 * credentials accepted moments ago; the hooks around it own the gates and the rate limit.
 */
export function createKeyDecision(deps: { config: Config; services: MerchantServices; tokens: TokenCodec }) {
  const { config, services, tokens } = deps;
  const tolerance = config.timestampToleranceSeconds;
  const verified = new VerifiedCache();

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

  return { identify, decide, repeatOf };
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
export function readHeaders(headers: IncomingHttpHeaders, withBearer: boolean): SignedHeaders | Error {
  try {
    return readSignedHeaders(headers, withBearer);
  } catch (err) {
    return err as Error;
  }
}
