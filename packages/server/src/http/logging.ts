import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
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

export function loggerOptions(config: Config, override: boolean | object | undefined): Exclude<FastifyServerOptions['logger'], undefined> {
  // Silent: no logger at all, so Fastify skips the per-request child logger and log hooks.
  if (override === false || (override === undefined && config.logLevel === 'silent')) return false;
  const base = { level: config.logLevel, redact: { paths: REDACT, censor: '[redacted]' } };
  return typeof override === 'object' ? { ...base, ...override } : base;
}

/** Fastify's hook for its per-request log lines: one line, no headers, so nothing secret. */
export class OneLineLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
