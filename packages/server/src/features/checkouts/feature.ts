import { defineFeature } from '../../feature-kit/feature.js';
import { startExpiryTimer } from './expiry.js';
import { checkoutMerchantRoutes } from './merchant-routes.js';
import { checkoutAdminRoutes } from './routes.js';
import { checkoutService, type CheckoutService } from './service.js';
import { chainPort, type ChainPort } from './watch-targets.js';
import { checkoutsMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    checkouts: CheckoutService;
    /** The narrow port chain watchers report through (watch-targets.ts). */
    chainPort: ChainPort;
  }
  interface FeatureOptions {
    /** How often the expiry timer looks for due checkouts, ms (0: no timer; tests call expireDue). Default 1000. */
    expirySweepMs?: number;
  }
}

/** Checkouts: the state table, the engine, transfers, the expiry timer and their routes. */
export const checkoutsFeature = defineFeature({
  name: 'checkouts',
  migrations: checkoutsMigrations,
  needs: ['store', 'caches', 'box', 'config', 'publicBaseUrl', 'now', 'log', 'options', 'outbox'],
  provides: ['checkouts', 'chainPort'],
  // Work that commits with every checkout transition (payment links, invoices: moves.ts).
  consumes: ['checkoutMoves'],
  create({ store, caches, box, config, publicBaseUrl, now, log, options, outbox }, contributed) {
    const checkouts = checkoutService({
      store,
      outbox,
      moveHandlers: contributed.checkoutMoves,
      caches,
      box,
      sandbox: config.sandbox ?? false,
      publicBaseUrl,
      ...(now === undefined ? {} : { now }),
    });
    const stopExpiry = startExpiryTimer(checkouts, options.expirySweepMs ?? 1000, log.warn);
    return { checkouts, chainPort: chainPort(store.db, checkouts), close: stopExpiry };
  },
  /** Transfers, review and the operators' view of checkouts. */
  admin: ({ checkouts }) => ({ checkouts }),
  merchantRoutes: [checkoutMerchantRoutes],
  adminRoutes: [checkoutAdminRoutes],
});
