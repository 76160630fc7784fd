import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import type { OneLineLogController } from './logging.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's metrics, for the separate metrics listener (server.ts). */
    hostpayMetrics: Metrics;
  }
}

/** The error code each error response carried, for the auth-failure counter (set by sendError). */
export const replyErrorCodes = new WeakMap<FastifyReply, string>();

/**
 * Counts one finished response by route template and status, times it, and counts failed
 * authentications by code. `elapsedMs` is the reply's elapsedTime, read once by the caller.
 */
export function responseObserver(
  metrics: Metrics,
): (req: FastifyRequest, reply: FastifyReply, elapsedMs: number) => void {
  return (req, reply, elapsedMs) => {
    const status = reply.statusCode;
    metrics.requests.series(req.routeOptions.url ?? 'unmatched', req.method, status).observe(elapsedMs / 1000);
    if (status === 401 || status === 403) {
      const code = replyErrorCodes.get(reply);
      if (code !== undefined) metrics.authFailures.inc({ code });
    }
  };
}

/**
 * Every response, 404s and errors included, is counted once it is finished. With a logger, Fastify
 * hands each finished response to the log controller (its access line), which counts it there:
 * an onResponse hook would be one more hook runner on every request for the same moment. Without
 * a logger (log level silent) Fastify skips that step, so an onResponse hook on the root instance
 * counts instead.
 */
export function installMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  logController: OneLineLogController | undefined,
): void {
  const observe = responseObserver(metrics);
  if (logController !== undefined) {
    logController.observe = observe;
    return;
  }
  app.addHook('onResponse', (req, reply, done) => {
    observe(req, reply, reply.elapsedTime);
    done();
  });
}
