import { defineFeature } from '../../feature-kit/feature.js';
import { keyAdmin } from '../keys/service.js';
import { merchantKeys, type MerchantKeys } from './keys.js';
import { merchantLook, type MerchantLookup } from './look.js';
import { settingsService, type SettingsService } from './settings.js';
import { settingsRoutes } from './settings-routes.js';
import { selfServiceDashboardRoutes } from './dashboard-routes.js';
import { summaryRoutes } from './summary-routes.js';
import { summaryService, type SummaryService } from './summary.js';
import { selfServiceMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The dashboard home's figures (GET /api/v1/cp/summary). */
    summary: SummaryService;
    /** A merchant's own settings and API keys, as the dashboard manages them. */
    selfService: { settings: SettingsService; keys: MerchantKeys };
    /** A merchant's page colours and default language, cached (every public page reads them). */
    merchantLook: MerchantLookup;
  }
}

/**
 * What a merchant does for itself from the dashboard beyond the merchant API: the
 * summary, page settings and its own API keys (over the keys feature's service).
 */
export const selfServiceFeature = defineFeature({
  name: 'self-service',
  migrations: selfServiceMigrations,
  needs: ['store', 'box', 'caches', 'config', 'now', 'publicBaseUrl'],
  provides: ['summary', 'selfService', 'merchantLook'],
  create: ({ store, box, caches, config, now, publicBaseUrl }) => ({
    summary: summaryService({ db: store.db, now: now ?? Date.now, publicBaseUrl }),
    selfService: {
      settings: settingsService({ store, caches, sandbox: config.sandbox ?? false }),
      keys: merchantKeys(keyAdmin({ store, box, caches }), store.db),
    },
    merchantLook: merchantLook(store.db, caches),
  }),
  merchantRoutes: [summaryRoutes, selfServiceDashboardRoutes, settingsRoutes],
});
