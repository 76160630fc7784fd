import type { ErrorCode } from './wire.js';

/** Codes the client raises itself, when no hostpay error envelope came back. */
export type ClientErrorCode =
  | 'NETWORK_ERROR' // the request never got an HTTP answer (DNS, refused, reset)
  | 'TIMEOUT' // the call did not finish within timeoutMs
  | 'ABORTED' // the caller's AbortSignal fired
  | 'HTTP_ERROR' // an HTTP error without a hostpay body (a proxy or load balancer answered)
  | 'INVALID_RESPONSE' // a 2xx whose body is not a hostpay envelope
  | 'INVALID_ARGUMENT'; // the call was refused before sending, e.g. an empty checkout id

/** Every code a HostpayError can carry; server codes may grow (the API only adds codes). */
export type HostpayErrorCode = ErrorCode | ClientErrorCode;

export interface HostpayErrorInit {
  status: number;
  code: HostpayErrorCode | (string & {});
  message: string;
  requestId?: string | undefined;
  details?: Record<string, unknown> | undefined;
  retryAfter?: number | undefined;
  cause?: unknown;
}

/**
 * The one error the client throws: server errors, network failures, timeouts and aborts alike.
 * `status` is 0 when no HTTP answer came back.
 */
export class HostpayError extends Error {
  override readonly name = 'HostpayError';
  /** HTTP status, or 0 for NETWORK_ERROR, TIMEOUT and ABORTED. */
  readonly status: number;
  /** Machine code: a server code (e.g. INVALID_SIGNATURE) or a ClientErrorCode. */
  readonly code: HostpayErrorCode | (string & {});
  /** The server's request id (body or x-request-id header); quote it to support. */
  readonly requestId: string | undefined;
  /** Extra facts from the server, e.g. `{ serverTime }` for TIMESTAMP_OUT_OF_WINDOW. */
  readonly details: Record<string, unknown> | undefined;
  /** Seconds the server asked to wait before retrying (`Retry-After`), when it said so. */
  readonly retryAfter: number | undefined;

  constructor(init: HostpayErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
  }
}

/** True for a HostpayError, also one from another realm or another copy of this package. */
export function isHostpayError(value: unknown): value is HostpayError {
  if (value instanceof HostpayError) return true;
  const v = value as { name?: unknown; code?: unknown; status?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.name === 'HostpayError' &&
    typeof v.code === 'string' &&
    typeof v.status === 'number'
  );
}

/** Turns whatever a fetch, body read, sleep or wait threw into a HostpayError. */
export function toHostpayError(error: unknown, signal: AbortSignal): HostpayError {
  if (isHostpayError(error)) return error;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    const timedOut = (reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
    return new HostpayError({
      status: 0,
      code: timedOut ? 'TIMEOUT' : 'ABORTED',
      message: timedOut
        ? 'the request did not complete in time: raise timeoutMs or check the network path to the server'
        : 'the request was aborted by its AbortSignal',
      cause: reason,
    });
  }
  return new HostpayError({
    status: 0,
    code: 'NETWORK_ERROR',
    message: `could not reach the server: ${(error as Error | undefined)?.message ?? String(error)}; check baseUrl and the network`,
    cause: error,
  });
}
