import { ERROR_STATUS, ErrorEnvelope, type ErrorCode } from '@hostpay/protocol';
import { Type, type TSchema } from '@sinclair/typebox';

/**
 * Pieces every route schema shares: the security requirements (names match the security schemes
 * in openapi.ts) and the documented error responses, one per status with the codes it can carry.
 */
export const SECURITY = {
  /** The four headers of interface §5. */
  merchant: [{ apiKey: [], timestamp: [], signature: [], bearer: [] }],
  /** The token route: the signed key headers, no bearer yet. */
  apiKey: [{ apiKey: [], timestamp: [], signature: [] }],
  /** The admin API: `Authorization: Bearer <operator token>`. */
  operator: [{ operatorToken: [] }],
  public: [],
};

const AUTH_401: ErrorCode[] = [
  'MISSING_HEADER',
  'INVALID_TIMESTAMP',
  'TIMESTAMP_OUT_OF_WINDOW',
  'UNKNOWN_API_KEY',
  'INVALID_SIGNATURE',
  'SIGNATURE_V2_REQUIRED',
];
const KEY_403: ErrorCode[] = ['KEY_REVOKED', 'KEY_EXPIRED', 'MERCHANT_SUSPENDED', 'IP_NOT_ALLOWED', 'SCOPE_MISSING'];
const ALWAYS: ErrorCode[] = ['RATE_LIMITED', 'INTERNAL', 'UNAVAILABLE', 'STORE_BUSY'];
/** The second way in: a dashboard session cookie (and its CSRF token on writes). */
const SESSION: ErrorCode[] = ['SESSION_REQUIRED', 'CSRF_FAILED'];

export const ERRORS = {
  wallets: [
    ...AUTH_401,
    'INVALID_TOKEN',
    'TOKEN_EXPIRED',
    ...KEY_403,
    'TOKEN_KEY_MISMATCH',
    'MERCHANT_FORBIDDEN',
    'INVALID_QUERY',
    ...SESSION,
    ...ALWAYS,
  ],
  feesPreview: [
    ...AUTH_401,
    'INVALID_TOKEN',
    'TOKEN_EXPIRED',
    ...KEY_403,
    'TOKEN_KEY_MISMATCH',
    'MERCHANT_FORBIDDEN',
    'INVALID_AMOUNT',
    'INVALID_CURRENCY',
    'INVALID_QUERY',
    'UNSUPPORTED_CURRENCY',
    'NO_FEE_SCHEDULE',
    'NO_RATE',
    'RATE_STALE',
    ...SESSION,
    ...ALWAYS,
  ],
  token: [...AUTH_401, ...KEY_403, 'INVALID_BODY', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', ...ALWAYS],
  adminRead: ['MISSING_HEADER', 'INVALID_TOKEN', 'IP_NOT_ALLOWED', 'INVALID_QUERY', 'NOT_FOUND', ...ALWAYS],
  adminWrite: [
    'MISSING_HEADER',
    'INVALID_TOKEN',
    'IP_NOT_ALLOWED',
    'CSRF_TOKEN_INVALID',
    'INVALID_QUERY',
    'INVALID_HEADER',
    'INVALID_BODY',
    'NOT_FOUND',
    'IDEMPOTENCY_CONFLICT',
    'PAYLOAD_TOO_LARGE',
    'UNSUPPORTED_MEDIA_TYPE',
    ...ALWAYS,
  ],
  public: ['INTERNAL'],
  ready: ['INTERNAL', 'UNAVAILABLE'],
} satisfies Record<string, ErrorCode[]>;

/** The codes each error response schema of errorResponses was made for. */
const codesOf = new WeakMap<TSchema, readonly ErrorCode[]>();

/** `{ 401: ErrorEnvelope described with its codes, 403: ..., }` for the given codes. */
export function errorResponses(codes: readonly ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    const description = `Error envelope; error.code is one of ${list.join(', ')}.`;
    // One schema per description, shared by the routes that answer the same codes: building one
    // per route was ~12 ms of a start (profile, loaded machine) for ~200 routes and a dozen lists.
    let schema = envelopes.get(description);
    if (schema === undefined) {
      schema = Type.Ref(ErrorEnvelope, { description });
      codesOf.set(schema, list);
      envelopes.set(description, schema);
    }
    out[status] = schema;
  }
  return out;
}

const envelopes = new Map<string, TSchema>();

/**
 * A route's responses with `code` documented too (a kernel hook adds what every route of a kind
 * can answer, e.g. SIGNATURE_REUSED on merchant writes); unchanged when it already is.
 */
export function withErrorCode(response: Record<string, TSchema>, code: ErrorCode): Record<string, TSchema> {
  const status = String(ERROR_STATUS[code]);
  const current = response[status];
  const listed = current === undefined ? [] : codesOf.get(current);
  if (listed === undefined || listed.includes(code)) return response;
  return { ...response, ...errorResponses([...listed, code]) };
}
