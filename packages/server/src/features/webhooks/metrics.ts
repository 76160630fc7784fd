import { Counter, Gauge, Histogram, type Metric } from 'prom-client';
import { sql } from 'kysely';
import type { Store } from '../../store/store.js';
import type { AttemptResult } from './sender.js';

/** Why an attempt failed, as a bounded label. */
export function failureReason(r: AttemptResult): string {
  if (r.statusCode !== null)
    return r.statusCode >= 200 && r.statusCode < 300
      ? 'none'
      : r.statusCode === 410
        ? 'gone'
        : r.statusCode >= 500
          ? 'http_5xx'
          : r.statusCode >= 300 && r.statusCode < 400
            ? 'redirect'
            : 'http_4xx';
  if (r.error?.startsWith('timeout')) return 'timeout';
  if (r.error?.startsWith('refused')) return 'refused_address';
  return 'network';
}

/**
 * Per-endpoint latency series an instance keeps: each costs ~1 KB of memory and 12 lines of every
 * scrape, and endpoints are created by merchants. Endpoints past this many share `endpoint="other"`.
 */
export const MAX_ENDPOINT_SERIES = 100;
export const OTHER_ENDPOINTS = 'other';

/**
 * Delivery metrics of one instance (attempts, successes, failures by reason, per-endpoint
 * latency) and of the shared queue (depth and age of the oldest due delivery, read from the store
 * at scrape time). Created unregistered; the HTTP app adds them to its /metrics registry.
 */
export class WebhookMetrics {
  readonly attempts = new Counter({
    name: 'hostpay_webhook_attempts_total',
    help: 'Webhook delivery attempts by result (success or the failure reason)',
    labelNames: ['result'] as const,
    registers: [],
  });
  readonly latency = new Histogram({
    name: 'hostpay_webhook_attempt_duration_seconds',
    help: 'Duration of webhook delivery attempts per endpoint, until the answer or the error',
    labelNames: ['endpoint'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [],
  });
  readonly lag = new Histogram({
    name: 'hostpay_webhook_delivery_lag_seconds',
    help: 'Time from queueing a delivery to each attempt at it',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600],
    registers: [],
  });
  private readonly endpointSeries = new Set<string>();
  readonly queueDepth: Gauge;
  readonly queueAge: Gauge;

  constructor(store: Store, now: () => number) {
    const read = async () => {
      const row = await store.db
        .selectFrom('webhook_deliveries')
        .select([sql<number>`count(*)`.as('depth'), sql<string | null>`min(next_attempt_at)`.as('oldest')])
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', new Date(now()).toISOString())
        .executeTakeFirst();
      return { depth: Number(row?.depth ?? 0), oldest: row?.oldest ?? null };
    };
    this.queueDepth = new Gauge({
      name: 'hostpay_webhook_queue_depth',
      help: 'Webhook deliveries due now and not yet done (all instances)',
      registers: [],
      async collect() {
        this.set((await read()).depth);
      },
    });
    this.queueAge = new Gauge({
      name: 'hostpay_webhook_queue_oldest_age_seconds',
      help: 'How long the oldest due webhook delivery has waited (0 when none)',
      registers: [],
      async collect() {
        const { oldest } = await read();
        // PostgreSQL returns a Date-like ISO string through the type parser; both parse.
        this.set(oldest === null ? 0 : Math.max(0, (now() - Date.parse(String(oldest))) / 1000));
      },
    });
  }

  observe(endpointId: string, r: AttemptResult, lagMs: number): void {
    const reason = failureReason(r);
    this.attempts.inc({ result: reason === 'none' ? 'success' : reason });
    this.latency.observe({ endpoint: this.endpointLabel(endpointId) }, r.latencyMs / 1000);
    this.lag.observe(Math.max(0, lagMs) / 1000);
  }

  private endpointLabel(endpointId: string): string {
    if (this.endpointSeries.has(endpointId)) return endpointId;
    if (this.endpointSeries.size >= MAX_ENDPOINT_SERIES) return OTHER_ENDPOINTS;
    this.endpointSeries.add(endpointId);
    return endpointId;
  }

  collectors(): Metric[] {
    return [this.attempts, this.latency, this.lag, this.queueDepth, this.queueAge] as unknown as Metric[];
  }
}
