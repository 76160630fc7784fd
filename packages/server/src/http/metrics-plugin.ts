import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Metrics } from '../observability/metrics.js';

/** The error code each error response carried, for the auth-failure counter (set by sendError). */
export const replyErrorCodes = new WeakMap<FastifyReply, string>();

const AUTH_STATUSES = new Set([401, 403]);

/**
 * Counts every response by route template and status, times it, and counts failed
 * authentications by code. Registered on the root instance so it sees 404s and errors too.
 */
export function installMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.requests.series(req.routeOptions.url ?? 'unmatched', req.method, reply.statusCode).observe(reply.elapsedTime / 1000);
    if (AUTH_STATUSES.has(reply.statusCode)) {
      const code = replyErrorCodes.get(reply);
      if (code !== undefined) metrics.authFailures.inc({ code });
    }
    done();
  });
}
