import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from '../config.js';

/**
 * Logging: pino at the configured level, credentials redacted wherever a request's headers could
 * be logged, and one completion line per request instead of Fastify's two (incoming + completed).
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers.signature',
  'req.headers.cookie',
  'headers.authorization',
  'headers.signature',
];

export function loggerOptions(
  config: Config,
  override: boolean | object | undefined,
): Exclude<FastifyServerOptions['logger'], undefined> {
  // Silent: no logger at all, so Fastify skips the per-request child logger and log hooks.
  if (override === false || (override === undefined && config.logLevel === 'silent')) return false;
  const base = { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } };
  return typeof override === 'object' ? { ...base, ...override } : base;
}

/**
 * Fastify's hook for its per-request log lines: one line, no headers, so nothing secret. Fastify
 * calls `requestCompleted` for every finished response when there is a logger; `observe` (the
 * request metrics, metrics-plugin.ts) is called there too, before the line is written.
 */
export class OneLineLogController extends LogController {
  observe: ((request: FastifyRequest, reply: FastifyReply, elapsedMs: number) => void) | undefined;

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const elapsedMs = reply.elapsedTime;
    this.observe?.(request, reply, elapsedMs);
    const log = reply.log;
    if (error)
      log.error(
        {
          method: request.method,
          url: request.url,
          statusCode: reply.statusCode,
          ms: Math.round(elapsedMs * 10) / 10,
          err: error,
        },
        'request errored',
      );
    // The line is built only when it will be written (at warn and above it is not).
    else logCompleted(log, request.method, request.url, reply.statusCode, elapsedMs);
  }
}

/** pino's level check; a logger without one is assumed to write info lines. */
export function infoEnabled(log: FastifyBaseLogger): boolean {
  return (
    (log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') !== false
  );
}

/** The access line of a finished request (also written by the fast path, http/fast-path.ts), built only when it will be written. */
export function logCompleted(
  log: FastifyBaseLogger,
  method: string,
  url: string | undefined,
  statusCode: number,
  elapsedMs: number,
  bound?: { reqId: string },
): void {
  if (infoEnabled(log))
    log.info({ ...bound, method, url, statusCode, ms: Math.round(elapsedMs * 10) / 10 }, 'request completed');
}
