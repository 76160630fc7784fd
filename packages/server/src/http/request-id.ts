import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Request ids: a caller's own `x-request-id` is echoed when it is safe to put in a header and a
 * log line; otherwise we make one from a random per-process prefix and a counter, unique across
 * instances without drawing randomness on every request.
 */
export const REQUEST_ID_HEADER = 'x-request-id';
// Short and plain: it is copied into logs, headers and the audit log, and must not carry markup,
// separators or a payload.
const VALID_ID = /^[A-Za-z0-9._-]{1,64}$/;
const PREFIX = 'req_' + randomBytes(6).toString('hex');
let counter = 0;

export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  if (typeof incoming === 'string' && VALID_ID.test(incoming)) return incoming;
  return newRequestId();
}

/** A fresh id of ours, also for answers given before there is a request (client errors). */
export function newRequestId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return PREFIX + counter.toString(36).padStart(6, '0');
}
