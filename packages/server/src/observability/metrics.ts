import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of one instance, served at /metrics. Labels are bounded: the route
 * template (never the raw URL), the status code, the error code from the closed list.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'hostpay_http_requests_total',
    help: 'HTTP requests by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'hostpay_http_request_duration_seconds',
    help: 'HTTP request latency by route template and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: 'hostpay_auth_failures_total',
    help: 'Failed authentications by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  readonly storeUp = new Gauge({
    name: 'hostpay_store_up',
    help: '1 when the store answered its last probe, else 0',
    labelNames: ['dialect'] as const,
    registers: [this.registry],
  });
  readonly redisUp = new Gauge({
    name: 'hostpay_redis_up',
    help: '1 when Redis is reachable, 0 when not, -1 when not configured',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'hostpay_' });
  }
}
