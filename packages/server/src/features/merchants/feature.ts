import type { AdminDeps } from '../../admin/deps.js';
import { defineFeature } from '../../feature-kit/feature.js';
import { merchantAdminRoutes } from './routes.js';
import { merchantAdmin } from './service.js';
import { spreadAdminRoutes } from './spread-routes.js';
import { spreadAdmin } from './spread.js';
import { merchantsMigrations } from './tables.js';

/** Merchants, and the default rate spread their checkouts are priced with when they have none of their own. */
const admin = (deps: AdminDeps) => ({ ...merchantAdmin(deps), ...spreadAdmin(deps) });

export const merchantsFeature = defineFeature({
  name: 'merchants',
  migrations: merchantsMigrations,
  needs: ['store', 'box', 'caches'],
  provides: [],
  admin,
  adminRoutes: [merchantAdminRoutes, spreadAdminRoutes],
});
