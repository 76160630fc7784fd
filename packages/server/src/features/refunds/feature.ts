import { defineFeature } from '../../feature-kit/feature.js';
import { refundMerchantRoutes } from './merchant-routes.js';
import { refundPageRoutes } from './page-routes.js';
import { payoutsForRefunds, refundedSoFar } from './payouts-port.js';
import { refundService, type RefundService } from './service.js';
import { refundsMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** Refunds of checkouts: payouts with refundOf, and the payer's refund links. */
    refunds: RefundService;
  }
}

/** Refunds (spec/payouts.md, "Refunds"): the merchant's routes and the payer's refund page. */
export const refundsFeature = defineFeature({
  name: 'refunds',
  migrations: refundsMigrations,
  needs: ['store', 'caches', 'publicBaseUrl', 'now', 'outbox', 'checkouts', 'payouts'],
  provides: ['refunds'],
  create: ({ store, caches, publicBaseUrl, now, outbox }) => ({
    refunds: refundService({
      store,
      caches,
      publicBaseUrl,
      now: now ?? Date.now,
      outbox,
      payouts: payoutsForRefunds(store.dialect, outbox),
      refundedSoFar,
    }),
  }),
  merchantRoutes: [refundMerchantRoutes, refundPageRoutes],
});
