import { defineFeature } from '../../feature-kit/feature.js';
import { feeFastRoutes, feeMerchantRoutes } from './merchant-routes.js';
import { settlementAdminRoutes } from './settlement-routes.js';
import { feeReads } from './merchant-read.js';
import { feeAdminRoutes } from './routes.js';
import { feeAdmin } from './service.js';
import { feesMigrations } from './tables.js';

/** Fee schedules and settlement currencies; the merchant's fee preview (also on the fast path). */
export const feesFeature = defineFeature({
  name: 'fees',
  migrations: feesMigrations,
  needs: ['store', 'box', 'caches', 'now'],
  provides: [],
  admin: feeAdmin,
  merchantRoutes: [feeMerchantRoutes],
  fastRoutes: [feeFastRoutes],
  merchantServices: feeReads,
  adminRoutes: [feeAdminRoutes, settlementAdminRoutes],
});
