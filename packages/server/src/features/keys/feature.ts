import { defineFeature } from '../../feature-kit/feature.js';
import { grantAdminRoutes } from './grant-routes.js';
import { keyReads } from './merchant-read.js';
import { keyAdminRoutes } from './routes.js';
import { keyAdmin } from './service.js';
import { keysMigrations } from './tables.js';

/**
 * API keys and the grants that let a platform key act for other merchants; the key lookup
 * authentication makes on every merchant request.
 */
export const keysFeature = defineFeature({
  name: 'keys',
  migrations: keysMigrations,
  needs: ['store', 'box', 'caches'],
  provides: [],
  admin: keyAdmin,
  merchantServices: keyReads,
  adminRoutes: [keyAdminRoutes, grantAdminRoutes],
});
