import { defineFeature } from '../../feature-kit/feature.js';
import { webhookAdminRoutes } from './admin-routes.js';
import { eventRedeliverRoutes, webhookMerchantRoutes } from './routes.js';
import { checkoutAttempts, checkoutDeliveryRoutes } from './checkout-deliveries.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import type { Events } from '../events/feature.js';
import type { Outbox } from '../events/outbox.js';
import { deliveriesOwed } from './queue.js';
import { systemResolver, type Resolver } from '../../outbound/guard.js';
import { WebhookMetrics } from './metrics.js';
import { WebhookSender } from './sender.js';
import { webhookService } from './service.js';
import { WebhookWorker, type WorkerOptions } from './worker.js';
import { webhookAdmin } from './admin-service.js';
import type { PageRequest } from '../../admin/pagination.js';
import type { AuditContext } from '../audit/service.js';
import { webhooksMigrations } from './tables.js';

export interface WebhookFeatureOptions {
  store: Store;
  box: SecretBox;
  sandbox: boolean;
  now?: () => number;
  /** DNS for the SSRF guard; tests answer with chosen addresses. Default: the system resolver. */
  resolve?: Resolver;
  log?: { warn(msg: string): void };
  worker?: Partial<
    Pick<
      WorkerOptions,
      'pollMs' | 'timeoutMs' | 'leaseMs' | 'maxEndpoints' | 'maxPerMerchant' | 'recordEvery' | 'batch' | 'identity'
    >
  >;
  /** The events feature: its wake-ups start the workers when a commit queued deliveries. */
  events: Pick<Events, 'deliveries'>;
  /** Where the webhooks' own events go (a test event, an endpoint disabled). */
  outbox: Outbox;
}

/**
 * Webhooks, wired once: the endpoints API, the operators' view and the delivery worker (created
 * stopped: the server starts it, tests may drive it by hand). Events come from the events feature.
 */
export function createWebhooks(opts: WebhookFeatureOptions) {
  const now = opts.now ?? Date.now;
  const guard = { sandbox: opts.sandbox, resolve: opts.resolve ?? systemResolver };
  const sender = new WebhookSender(guard);
  const metrics = new WebhookMetrics(opts.store, now);
  const workerOptions = {
    store: opts.store,
    outbox: opts.outbox,
    box: opts.box,
    sender,
    now,
    metrics,
    log: opts.log ?? { warn: () => undefined },
    wakeups: opts.events.deliveries,
    ...opts.worker,
  };
  const worker = new WebhookWorker(workerOptions);
  const endpoints = webhookService({
    store: opts.store,
    box: opts.box,
    guard,
    now,
    wake: () => worker.wake(),
    outbox: opts.outbox,
  });
  const health = webhookAdmin(opts.store.db, now);
  return {
    endpoints,
    /** A checkout's delivery attempts (checkout-deliveries.ts). */
    checkoutAttempts: (merchantId: string, checkoutId: string, req: PageRequest) =>
      checkoutAttempts(opts.store.db, merchantId, checkoutId, req),
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
      await worker.stop();
      sender.close();
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** Webhook endpoints and the delivery worker (started by createServer). */
    webhooks: Webhooks;
  }
  interface StartOptions {
    /** false: the webhook delivery worker is not started (tests drive it by hand). Default true. */
    webhookWorker?: boolean;
  }
  interface FeatureOptions {
    /** Webhook delivery: DNS for the SSRF guard (tests), worker timings. */
    webhooks?: Pick<WebhookFeatureOptions, 'resolve' | 'worker'>;
  }
}

export const webhooksFeature = defineFeature({
  name: 'webhooks',
  migrations: webhooksMigrations,
  needs: ['store', 'box', 'config', 'log', 'now', 'identity', 'options', 'events', 'outbox'],
  provides: ['webhooks'],
  // Every appended event owes its deliveries, in its own transaction (queue.ts).
  contributes: { outboxSubscribers: () => [deliveriesOwed] },
  create({ store, box, config, log, now, identity, options, events, outbox }) {
    const webhooks = createWebhooks({
      store,
      events,
      outbox,
      box,
      sandbox: config.sandbox ?? false,
      log,
      ...(now === undefined ? {} : { now }),
      ...options.webhooks,
      worker: { leaseMs: (config.webhookLeaseSeconds ?? 10) * 1000, identity, ...options.webhooks?.worker },
    });
    return { webhooks, close: () => webhooks.close() };
  },
  /** Every merchant's webhook endpoints with their health. */
  admin: ({ webhooks }) => webhooks.admin,
  // After the events routes: redelivery takes their body example.
  merchantRoutes: [eventRedeliverRoutes, webhookMerchantRoutes, checkoutDeliveryRoutes],
  adminRoutes: [webhookAdminRoutes],
  start: ({ webhooks }) => webhooks.worker.start(),
  startOption: 'webhookWorker',
});
