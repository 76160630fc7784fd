import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HostpayError, isHostpayError } from '../errors.js';
import { isStoreBusy, isStoreUnavailable } from '../store/unavailable.js';
import { errorBody, JSON_UTF8 } from './envelope.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { replyErrorCodes } from './metrics-plugin.js';

/**
 * The one place an error becomes a response: our own HostpayErrors as they are, Fastify's
 * framework errors mapped to our codes, anything else a bare 500 whose detail goes to the log only.
 */
export function sendError(
  reply: FastifyReply,
  err: HostpayError,
  requestId: string,
  /** Another status than the code's, where HTTP requires one (a docs file's 416, openapi.ts). */
  status = err.status,
): FastifyReply {
  if (err.headers !== undefined) reply.headers(err.headers);
  replyErrorCodes.set(reply, err.code);
  // Sent as text: the shape is ours and fixed, so a compiled serializer per route and status buys nothing.
  return reply
    .code(status)
    .header(REQUEST_ID_HEADER, requestId)
    .type(JSON_UTF8)
    .send(JSON.stringify(errorBody(err, requestId)));
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, req, reply) => {
    const mapped = toHostpayError(err, req);
    if (mapped.code === 'INTERNAL') req.log.error({ err }, 'unhandled error');
    else if (mapped.code === 'UNAVAILABLE') req.log.warn({ err }, 'service unavailable');
    else if (mapped.code === 'STORE_BUSY') req.log.warn({ err }, 'store busy');
    return sendError(reply, mapped, req.id);
  });
}

/** For errors Fastify raises before routing (bad URL encoding and the like), where hooks do not run. */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, toHostpayError(err, req), req.id);
}

export function toHostpayError(err: unknown, req: FastifyRequest): HostpayError {
  if (isHostpayError(err)) return err;
  const e = (err ?? {}) as Partial<FastifyError>;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HostpayError(
        'PAYLOAD_TOO_LARGE',
        `request body is too large: this endpoint accepts at most ${req.routeOptions.bodyLimit ?? 0} bytes`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HostpayError(
        'UNSUPPORTED_MEDIA_TYPE',
        `unsupported Content-Type ${describeType(req.headers['content-type'])}: send a JSON body with Content-Type: application/json, or no body`,
      );
    case 'FST_ERR_BAD_URL':
      return new HostpayError(
        'INVALID_QUERY',
        'the request URL is malformed (invalid percent-encoding): encode it per RFC 3986',
      );
    default:
      break;
  }
  if (e.validation !== undefined) {
    return e.validationContext === 'body'
      ? new HostpayError('INVALID_BODY', `request body is invalid: ${e.message ?? ''}`)
      : new HostpayError('INVALID_QUERY', `request is invalid: ${e.message ?? ''}`);
  }
  // PostgreSQL refusing a value's text (bad timestamp, NUL byte, …) is the client's input, not a bug.
  if (typeof e.code === 'string' && /^(22P02|22007|22008|22021|22001)$/.test(e.code)) {
    return new HostpayError(
      'INVALID_QUERY',
      'a parameter has a value the store cannot accept (malformed time, NUL byte or too long): check the request parameters',
    );
  }
  if (isStoreBusy(err)) {
    return new HostpayError(
      'STORE_BUSY',
      'the server is busy: every connection to the store is in use; retry after the Retry-After seconds',
      { retryAfterSeconds: 1 },
      { 'retry-after': '1' },
    );
  }
  if (isStoreUnavailable(err))
    return new HostpayError('UNAVAILABLE', 'the store is not reachable right now: retry shortly, with backoff');
  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (typeof e.code === 'string' && e.code.startsWith('FST_ERR_CTP_')) {
    return new HostpayError(
      'INVALID_BODY',
      `request body could not be read (${e.message ?? 'bad body'}): send valid JSON with a correct Content-Length, or no body`,
    );
  }
  if (status === 404) return new HostpayError('NOT_FOUND', 'no such resource');
  if (status === 503) return new HostpayError('UNAVAILABLE', 'service temporarily unavailable: retry shortly');
  if (status >= 400 && status < 500)
    return new HostpayError('INVALID_QUERY', `bad request: ${e.message ?? 'malformed request'}`);
  return new HostpayError('INTERNAL', 'internal error');
}

function describeType(contentType: string | undefined): string {
  if (contentType === undefined || contentType === '') return '(none, with a body)';
  const type = contentType.split(';', 1)[0]?.trim() ?? '';
  return /^[\w.+-]+\/[\w.+-]+$/.test(type) ? `\`${type}\`` : '(unreadable)';
}
