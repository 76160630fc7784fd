/**
 * The closed list of machine error codes and the one map from code to HTTP status.
 * Codes are stable once published: add new ones, never rename or reuse.
 */
export const ERROR_STATUS = {
  // 400 — the request itself is malformed
  INVALID_AMOUNT: 400,
  INVALID_CURRENCY: 400,
  INVALID_QUERY: 400,
  INVALID_BODY: 400,
  /** A request header of ours (`Idempotency-Key`, …) that does not have the documented form. */
  INVALID_HEADER: 400,
  /** A URL field that is malformed, not https, or points at a refused address. */
  INVALID_URL: 400,
  /** An email address that is not one addr-spec of at most 254 characters (no CR, LF, comma or display name). */
  INVALID_EMAIL: 400,
  /** Not valid HTTP: refused by the parser before routing (bad request line, URL bytes, chunking). */
  MALFORMED_REQUEST: 400,
  /** A payout destination that is not a valid address of its chain (and network). */
  INVALID_ADDRESS: 400,
  // 401 — we could not tell who is calling
  MISSING_HEADER: 401,
  UNKNOWN_API_KEY: 401,
  INVALID_TIMESTAMP: 401,
  TIMESTAMP_OUT_OF_WINDOW: 401,
  INVALID_SIGNATURE: 401,
  /**
   * A correct version-1 signature where version 2 is required: on every merchant route but the
   * interface's two GETs and the token endpoint, and everywhere for a key set to require it.
   */
  SIGNATURE_V2_REQUIRED: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  /** No live merchant dashboard session (signed out, idle or past its end, never signed in). */
  SESSION_REQUIRED: 401,
  /** Dashboard sign-in: the email and password (or the current password) do not match; never says which. */
  SIGN_IN_FAILED: 401,
  /** Dashboard sign-in: the TOTP code or recovery code is wrong, outside the window, or already used. */
  TOTP_INVALID: 401,
  // 403 — we know who is calling, and the answer is no
  TOKEN_KEY_MISMATCH: 403,
  MERCHANT_FORBIDDEN: 403,
  KEY_REVOKED: 403,
  KEY_EXPIRED: 403,
  SCOPE_MISSING: 403,
  IP_NOT_ALLOWED: 403,
  MERCHANT_SUSPENDED: 403,
  /** A console write without the session's CSRF token in `x-csrf-token` (or with another one). */
  CSRF_TOKEN_INVALID: 403,
  /** A merchant dashboard write (session cookie) without the session's CSRF token in `x-csrf-token`. */
  CSRF_FAILED: 403,
  /** A dashboard route the signed-in user's role may not use (team, security log, …). */
  ROLE_FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** An invitation or password-reset link that is unknown, used, revoked or expired. */
  LINK_INVALID: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  IDEMPOTENCY_CONFLICT: 409,
  KEY_ALREADY_ROTATED: 409,
  /** A team change that cannot be made: the email is already a user or invited, or the last owner would go. */
  TEAM_CONFLICT: 409,
  /** The checkout is not in a state that allows this (cancel after payment, settle when not in review). */
  CHECKOUT_STATE_CONFLICT: 409,
  /** The payout (or payout destination) is not in a state that allows this move. */
  PAYOUT_STATE_CONFLICT: 409,
  /** A payout or refund from a wallet an operator deactivated: nothing leaves it until it is activated again. */
  WALLET_INACTIVE: 409,
  /**
   * A state-changing merchant request whose signature (API key, timestamp, signature) was already
   * accepted once: a replay. Nothing was done; sign again with a fresh timestamp for a new
   * request, or send the first request's Idempotency-Key to get its answer.
   */
  SIGNATURE_REUSED: 409,
  /** The invoice is not in a state that allows this move (edit after finalize, void when paid, …). */
  INVOICE_STATE_CONFLICT: 409,
  /** The payment link is inactive, expired or used up: it makes no more checkouts (details say which). */
  PAYMENT_LINK_UNAVAILABLE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  EXPECTATION_FAILED: 417,
  // 422 — well-formed, but a business rule says no
  UNSUPPORTED_CURRENCY: 422,
  NO_FEE_SCHEDULE: 422,
  NO_RATE: 422,
  INSUFFICIENT_FUNDS: 422,
  /** Nothing to mail to: an invoice sent without a customer email, a refund link with sendEmail and no payer email known. */
  CUSTOMER_EMAIL_MISSING: 422,
  /** A refund larger than what the checkout received minus its earlier refunds (or nothing is left). */
  REFUND_TOO_LARGE: 422,
  /** No payment option of the checkout can be offered (no wallet, rate, address key or fee room). */
  NO_PAYABLE_OPTION: 422,
  /** The chain has no extended public key to derive deposit addresses from. */
  CHAIN_NOT_CONFIGURED: 422,
  /** The payout would take the merchant past its rolling 24 h limit for the asset. */
  PAYOUT_LIMIT: 422,
  /** The payout destination is still cooling off, revoked, or on another chain. */
  DESTINATION_NOT_ACTIVE: 422,
  RATE_LIMITED: 429,
  /** Dashboard sign-in: too many failures for this account; retry after `Retry-After` seconds. */
  ACCOUNT_LOCKED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  /**
   * The store answers, but every connection to it is in use and the queue for one is full or was
   * waited in too long (load, not an outage): retry after `Retry-After` seconds.
   */
  STORE_BUSY: 503,
  /**
   * A rate the answer needs is older than its maximum age (its source stopped answering): nothing
   * is priced with it. `details` name the pair(s) and their age; retry after `Retry-After` seconds.
   */
  RATE_STALE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}
