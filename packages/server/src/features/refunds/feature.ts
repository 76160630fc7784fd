import { defineFeature } from '../../feature-kit/feature.js';
import { refundLinkMailTemplate } from './mail.js';
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
  needs: ['store', 'box', 'caches', 'publicBaseUrl', 'now', 'outbox', 'checkouts', 'payouts', 'merchantLook'],
  provides: ['refunds'],
  // A refund link asked with sendEmail is mailed to the payer, rendered by its template (mail.ts).
  contributes: { mailTemplates: () => [refundLinkMailTemplate] },
  create: ({ store, box, caches, publicBaseUrl, now, outbox }) => ({
    refunds: refundService({
      store,
      box,
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
