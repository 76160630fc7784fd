import { HostpayError } from '../errors.js';
import type { RateLimitResult } from './rate-limit.js';
import { isWellFormedSignature } from './signature.js';

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
export function signatureV2Required(routeAcceptsV1: boolean): HostpayError {
  return new HostpayError('SIGNATURE_V2_REQUIRED', routeAcceptsV1 ? V2_FOR_KEY : V2_FOR_ROUTE);
}

export function signatureError(
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
