import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import { RequestMetrics } from './request-metrics.js';
import type { RedisState } from '../cluster/shared-state.js';

/**
 * Prometheus metrics of one instance, served at /metrics. Labels are bounded: the route
 * template (never the raw URL), the status code, the error code from the closed list.
 * Names follow the Prometheus conventions `promtool check metrics` enforces: `_total` on
 * counters only, base units in the name (`_seconds`, `_bytes`), help on every metric, and no
 * sentinel values (a metric that does not apply is absent, not -1).
 */

/**
 * prom-client's default metrics include three gauges named `…_total` (the sums of
 * `nodejs_active_handles`, `…_requests` and `…_resources` over their `type` label). `_total`
 * is reserved for counters, and `sum()` over the labelled gauges gives the same figure.
 */
const NON_CONVENTIONAL_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];
const PREFIX = 'hostpay_';
const REDIS_UP = `${PREFIX}redis_up`;

export class Metrics {
  readonly registry = new Registry();
  /** hostpay_http_requests_total and hostpay_http_request_duration_seconds (request-metrics.ts). */
  readonly requests = new RequestMetrics();
  readonly authFailures = new Counter({
    name: 'hostpay_auth_failures_total',
    help: 'Failed authentications by error code',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });
  /** Requests still signed with version 1, per key (at most MAX_V1_KEY_LABELS ids, then "other"). */
  readonly signatureV1Requests = new Counter({
    name: 'hostpay_signature_v1_requests_total',
    help: 'Accepted requests signed with the deprecated signature version 1, by API key id (at most 200 ids per instance, later ones as "other")',
    labelNames: ['key_id'] as const,
    registers: [this.registry],
  });
  readonly storeUp = new Gauge({
    name: 'hostpay_store_up',
    help: '1 when the store answered its last probe, else 0',
    labelNames: ['dialect'] as const,
    registers: [this.registry],
  });
  /** Registered only while Redis is configured (see setRedis). */
  private readonly redisUp = new Gauge({
    name: REDIS_UP,
    help: '1 when Redis is reachable, else 0; absent when Redis is not configured',
    registers: [],
  });

  constructor() {
    for (const c of this.requests.collectors({
      requests: 'hostpay_http_requests_total',
      latency: 'hostpay_http_request_duration_seconds',
    })) {
      this.registry.registerMetric(c as unknown as Metric);
    }
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    for (const name of NON_CONVENTIONAL_DEFAULTS) this.registry.removeSingleMetric(PREFIX + name);
  }

  /** What a scrape refreshes first (the store probe, Redis): added by the routes that own them. */
  private readonly beforeScrape: (() => unknown)[] = [];

  onScrape(step: () => unknown): void {
    this.beforeScrape.push(step);
  }

  /** The exposition text, for GET /metrics on the service port or on the metrics listener. */
  async text(): Promise<string> {
    for (const step of this.beforeScrape) await step();
    return this.registry.metrics();
  }

  /** Records where Redis stands: 1 up, 0 down, and no hostpay_redis_up series when disabled. */
  setRedis(state: RedisState): void {
    const registered = this.registry.getSingleMetric(REDIS_UP) !== undefined;
    if (state === 'disabled') {
      if (registered) this.registry.removeSingleMetric(REDIS_UP);
      return;
    }
    if (!registered) this.registry.registerMetric(this.redisUp);
    this.redisUp.set(state === 'up' ? 1 : 0);
  }
}
