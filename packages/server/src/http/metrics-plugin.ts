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
  // prom-client hashes a label object on every call; binding each (route, method, status) once
  // keeps the per-request cost to two increments. Bounded: routes and statuses are finite.
  const bound = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const key = `${route} ${req.method} ${reply.statusCode}`;
    let m = bound.get(key);
    if (m === undefined) {
      const labels = { route, method: req.method, status: String(reply.statusCode) };
      m = { count: metrics.requests.labels(labels), time: metrics.latency.labels(labels) };
      bound.set(key, m);
    }
    m.count.inc();
    m.time.observe(reply.elapsedTime / 1000);
    if (AUTH_STATUSES.has(reply.statusCode)) {
      const code = replyErrorCodes.get(reply);
      if (code !== undefined) metrics.authFailures.inc({ code });
    }
    done();
  });
}
