import { defineFeature } from '../../feature-kit/feature.js';
import { grantAdminRoutes } from './grant-routes.js';
import { keyAdminRoutes } from './routes.js';
import { keyAdmin } from './service.js';
import { keysMigrations } from './tables.js';

/** API keys and the grants that let a platform key act for other merchants. */
export const keysFeature = defineFeature({
  name: 'keys',
  migrations: keysMigrations,
  needs: ['store', 'box', 'caches'],
  provides: [],
  admin: keyAdmin,
  adminRoutes: [keyAdminRoutes, grantAdminRoutes],
});
