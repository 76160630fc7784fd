import { defineFeature } from '../../feature-kit/feature.js';
import { catalogAdminRoutes } from './routes.js';
import { catalogAdmin } from './service.js';
import { catalogMigrations } from './tables.js';

/** Assets, chains (and their xpubs), networks, deposit addresses. */
export const catalogFeature = defineFeature({
  name: 'catalog',
  migrations: catalogMigrations,
  needs: ['store', 'box', 'caches'],
  provides: [],
  admin: catalogAdmin,
  adminRoutes: [catalogAdminRoutes],
});
