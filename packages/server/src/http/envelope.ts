import type { ErrorCode } from '@hostpay/protocol';
import type { HostpayError } from '../errors.js';

/** Content type of every JSON body we write; the charset is explicit for non-JS clients. */
export const JSON_UTF8 = 'application/json; charset=utf-8';

export interface ErrorBody {
  status: false;
  isSuccess: false;
  message: string;
  result: null;
  error: { code: ErrorCode; requestId: string; details?: Record<string, unknown> };
}

/** The error envelope (PRODUCT.md): same shape for every failure, request id included. */
export function errorBody(err: HostpayError, requestId: string): ErrorBody {
  const error: ErrorBody['error'] = { code: err.code, requestId };
  if (err.details !== undefined) error.details = err.details;
  return { status: false, message: err.message, isSuccess: false, result: null, error };
}

/** The success envelope for bodies that go through the route's response serializer. */
export function okBody<T>(message: string, result: T): { status: true; isSuccess: true; message: string; result: T } {
  return { status: true, message, isSuccess: true, result };
}
