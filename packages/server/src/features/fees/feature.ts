import { defineFeature } from '../../feature-kit/feature.js';
import { feeFastRoutes, feeMerchantRoutes } from './merchant-routes.js';
import { rateAdminRoutes } from './rate-routes.js';
import { feeAdminRoutes } from './routes.js';
import { feeAdmin } from './service.js';

/** Fee schedules, settlement currencies and rates; the merchant's fee preview (also on the fast path). */
export const feesFeature = defineFeature({
  name: 'fees',
  needs: ['store', 'box', 'caches', 'now'],
  provides: [],
  admin: feeAdmin,
  merchantRoutes: [feeMerchantRoutes],
  fastRoutes: [feeFastRoutes],
  adminRoutes: [feeAdminRoutes, rateAdminRoutes],
});
