import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import { eventService } from '../events/service.js';
import { eventStreams, type StreamOptions } from '../events/stream.js';
import { systemResolver, type Resolver } from './guard.js';
import { WebhookMetrics } from './metrics.js';
import { WebhookSender } from './sender.js';
import { webhookService } from './service.js';
import { WakeBus } from './wakeup.js';
import { WebhookWorker, type WorkerOptions } from './worker.js';
import { webhookAdmin } from './admin-service.js';
import type { PageRequest } from '../../admin/pagination.js';
import type { AuditContext } from '../audit/service.js';

export interface WebhookFeatureOptions {
  store: Store;
  box: SecretBox;
  sandbox: boolean;
  now?: () => number;
  /** DNS for the SSRF guard; tests answer with chosen addresses. Default: the system resolver. */
  resolve?: Resolver;
  log?: { warn(msg: string): void };
  worker?: Partial<Pick<WorkerOptions, 'pollMs' | 'timeoutMs' | 'leaseMs' | 'maxEndpoints' | 'batch' | 'identity'>>;
  /** Event streams: how often one looks at the store when nothing woke it (tests). */
  streams?: Pick<StreamOptions, 'pollMs'>;
  /** PostgreSQL: where the workers and event streams LISTEN for wake-ups (wakeup.ts). SQLite needs nothing. */
  postgres?: { url: string; schema: string };
}

/**
 * Events and webhooks, wired once: the events API, the endpoints API, the operators' view and
 * the delivery worker (created stopped: the server starts it, tests may drive it by hand).
 */
export function createWebhooks(opts: WebhookFeatureOptions) {
  const now = opts.now ?? Date.now;
  const guard = { sandbox: opts.sandbox, resolve: opts.resolve ?? systemResolver };
  const sender = new WebhookSender(guard);
  const metrics = new WebhookMetrics(opts.store, now);
  // Commits wake the workers and the event streams of this store (wakeup.ts).
  const bus = new WakeBus(opts.store, opts.postgres);
  const workerOptions = {
    store: opts.store,
    box: opts.box,
    sender,
    now,
    metrics,
    log: opts.log ?? { warn: () => undefined },
    wakeups: bus.deliveries,
    ...opts.worker,
  };
  const worker = new WebhookWorker(workerOptions);
  const endpoints = webhookService({ store: opts.store, box: opts.box, guard, now, wake: () => worker.wake() });
  const health = webhookAdmin(opts.store.db, now);
  const streams = eventStreams(opts.store.db, { wakeups: bus, ...opts.streams });
  return {
    events: eventService(opts.store.db),
    /** Open Server-Sent Events streams of events (`hostpay listen`). */
    streams,
    endpoints,
    admin: {
      ...health,
      /** Any merchant's endpoint's attempt log, newest first (the merchant route's, without the ownership check). */
      webhookAttempts: (endpointId: string, req: PageRequest, eventId?: string) =>
        endpoints.attempts(undefined, endpointId, req, eventId),
      /** Sends one event of the endpoint's merchant to this endpoint again (same webhook-id). */
      async redeliverToEndpoint(endpointId: string, eventId: string, audit: AuditContext) {
        const endpoint = await health.getWebhookEndpoint(endpointId);
        return endpoints.redeliver(endpoint.merchantId, eventId, endpointId, audit);
      },
    },
    worker,
    metrics,
    /** Another worker over the same store, as a second instance would run (tests). */
    spawnWorker: (overrides: Partial<WorkerOptions> = {}) => new WebhookWorker({ ...workerOptions, ...overrides }),
    async close() {
      streams.closeAll();
      await worker.stop();
      await bus.close();
      sender.close();
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
