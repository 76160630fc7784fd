import { defineFeature } from '../../feature-kit/feature.js';
import { payoutGuards, type PayoutGuards } from './guards.js';
import { PayoutMetrics } from './metrics.js';
import { payoutMerchantRoutes } from './merchant-routes.js';
import { payoutAdminRoutes } from './routes.js';
import { payoutSenderPort, type PayoutSenderPort } from './sender-port.js';
import { payoutService, type PayoutService } from './service.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    payouts: PayoutService;
    /** The port payout senders (manual, EVM hot wallet, chain verification) work through (sender-port.ts). */
    payoutSender: PayoutSenderPort;
    /** Where senders register their veto over merchants' and operators' moves (guards.ts). */
    payoutGuards: PayoutGuards;
  }
}

/** Payouts: the address book, requests, approval, the manual sender and the senders' port. */
export const payoutsFeature = defineFeature({
  name: 'payouts',
  needs: ['store', 'caches', 'config', 'now'],
  provides: ['payouts', 'payoutSender', 'payoutGuards'],
  create({ store, caches, config, now }) {
    const guards = payoutGuards();
    // One set of counters for every path that completes a payout: the service's moves and the senders'.
    const metrics = new PayoutMetrics();
    return {
      payouts: payoutService({ store, caches, sandbox: config.sandbox ?? false, now, guards, metrics }),
      payoutGuards: guards,
      payoutSender: payoutSenderPort(store, caches, now ?? Date.now, metrics),
    };
  },
  admin: ({ payouts }) => ({ payouts }),
  merchantRoutes: [payoutMerchantRoutes],
  adminRoutes: [payoutAdminRoutes],
});
