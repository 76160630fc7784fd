import { defineFeature } from '../../feature-kit/feature.js';
import { PayoutMetrics } from './metrics.js';
import { payoutMerchantRoutes } from './merchant-routes.js';
import { payoutAdminRoutes } from './routes.js';
import { payoutSenderPort, type PayoutSenderPort } from './sender-port.js';
import { payoutService, type PayoutService } from './service.js';
import { payoutsMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    payouts: PayoutService;
    /** The port payout senders (manual, EVM hot wallet, chain verification) work through (sender-port.ts). */
    payoutSender: PayoutSenderPort;
  }
}

/** Payouts: the address book, requests, approval, the manual sender and the senders' port. */
export const payoutsFeature = defineFeature({
  name: 'payouts',
  migrations: payoutsMigrations,
  needs: ['store', 'caches', 'config', 'now', 'outbox'],
  provides: ['payouts', 'payoutSender'],
  // Senders' vetoes over merchants' and operators' moves (guards.ts; the hot wallet's).
  consumes: ['payoutGuards'],
  create({ store, caches, config, now, outbox }, contributed) {
    // One set of counters for every path that completes a payout: the service's moves and the senders'.
    const metrics = new PayoutMetrics();
    return {
      payouts: payoutService({
        store,
        caches,
        outbox,
        sandbox: config.sandbox ?? false,
        now,
        guards: contributed.payoutGuards,
        metrics,
      }),
      payoutSender: payoutSenderPort(store, caches, outbox, now ?? Date.now, metrics),
    };
  },
  admin: ({ payouts }) => ({ payouts }),
  merchantRoutes: [payoutMerchantRoutes],
  adminRoutes: [payoutAdminRoutes],
});
