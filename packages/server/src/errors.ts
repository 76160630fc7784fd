import { statusOf, type ErrorCode } from '@hostpay/protocol';

/**
 * The one error shape. Anything that should reach a client as a specific code is thrown as a
 * HostpayError; everything else becomes 500 INTERNAL in the error handler, with no detail.
 */
export class HostpayError extends Error {
  override readonly name = 'HostpayError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = statusOf(code);
  }
}

export function fail(code: ErrorCode, message: string, details?: Record<string, unknown>): never {
  throw new HostpayError(code, message, details);
}

export function isHostpayError(err: unknown): err is HostpayError {
  return err instanceof HostpayError;
}
