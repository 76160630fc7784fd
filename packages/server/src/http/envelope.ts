import type { ErrorCode } from '@hostpay/protocol';
import type { FastifyReply } from 'fastify';
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

/**
 * Sends finished JSON text, or the text once it is ready, from a route handler. Text from a cache
 * is sent in the same turn and nothing is returned (a handler that called send). For text still
 * coming, the promise returned adopts the reply (a thenable that settles once the answer is out),
 * as an async handler returning `reply.send(...)` does.
 */
export function sendJsonText(reply: FastifyReply, body: string | Promise<string>): void | Promise<void> {
  if (typeof body === 'string') {
    reply.type(JSON_UTF8).send(body);
    return;
  }
  return body.then((text) => reply.type(JSON_UTF8).send(text)) as unknown as Promise<void>;
}

/** `then` for a value that may already be there: `f` runs at once on a plain value. */
export function andThen<T, R>(value: T | Promise<T>, f: (v: T) => R): R | Promise<Awaited<R>> {
  return value instanceof Promise ? (value.then(f) as Promise<Awaited<R>>) : f(value);
}
