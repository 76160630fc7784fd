import { defineFeature } from '../../feature-kit/feature.js';
import { keyAdmin } from '../keys/service.js';
import { merchantKeys, type MerchantKeys } from './keys.js';
import { settingsService, type SettingsService } from './settings.js';
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
  }
}

/**
 * What a merchant does for itself from the dashboard beyond the merchant API (issue 30): the
 * summary, page settings and its own API keys (over the keys feature's service).
 */
export const selfServiceFeature = defineFeature({
  name: 'self-service',
  migrations: selfServiceMigrations,
  needs: ['store', 'box', 'caches', 'config', 'now', 'publicBaseUrl'],
  provides: ['summary', 'selfService'],
  create: ({ store, box, caches, config, now, publicBaseUrl }) => ({
    summary: summaryService({ db: store.db, now: now ?? Date.now, publicBaseUrl }),
    selfService: {
      settings: settingsService({ store, caches, sandbox: config.sandbox ?? false }),
      keys: merchantKeys(keyAdmin({ store, box, caches }), store.db),
    },
  }),
  merchantRoutes: [summaryRoutes, selfServiceDashboardRoutes],
});
