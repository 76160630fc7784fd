import { defineFeature } from '../../feature-kit/feature.js';
import { paymentLinkMerchantRoutes } from './merchant-routes.js';
import { paymentLinkPageRoutes } from './page-routes.js';
import { paymentLinkReceiptLines } from './receipt-lines.js';
import { paymentLinkSource } from './search.js';
import { paymentLinkService, type PaymentLinkService } from './service.js';
import { paymentLinksMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** Payment links: the merchant's reusable pay pages, /l/{slug}. */
    paymentLinks: PaymentLinkService;
  }
}

/** Payment links (spec/commerce.md, "Payment links"): the merchant's routes and the public page. */
export const paymentLinksFeature = defineFeature({
  name: 'payment-links',
  migrations: paymentLinksMigrations,
  needs: ['store', 'config', 'publicBaseUrl', 'now', 'outbox', 'checkouts'],
  provides: ['paymentLinks'],
  // The merchant search finds links by id, address and name (search.ts).
  contributes: {
    searchSources: () => [paymentLinkSource],
    // A receipt of a link's checkout lists the link's items, or the amount the payer typed (receipt-lines.ts).
    receiptLines: () => [paymentLinkReceiptLines],
  },
  create: ({ store, config, publicBaseUrl, now, outbox, checkouts }) => ({
    paymentLinks: paymentLinkService({
      store,
      outbox,
      checkouts,
      publicBaseUrl,
      sandbox: config.sandbox ?? false,
      ...(now === undefined ? {} : { now }),
    }),
  }),
  merchantRoutes: [paymentLinkMerchantRoutes, paymentLinkPageRoutes],
});
