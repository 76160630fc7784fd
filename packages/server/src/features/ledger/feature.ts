import { defineFeature } from '../../feature-kit/feature.js';
import { postingAdminRoutes } from './routes.js';
import { ledgerAdmin } from './service.js';
import { ledgerMigrations } from './tables.js';

/** Postings: the only way balances change. */
export const ledgerFeature = defineFeature({
  name: 'ledger',
  migrations: ledgerMigrations,
  needs: ['store', 'box', 'caches', 'outbox'],
  provides: [],
  admin: ledgerAdmin,
  adminRoutes: [postingAdminRoutes],
});
