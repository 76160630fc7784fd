import { defineFeature } from '../../feature-kit/feature.js';
import { statsAdminRoutes } from './routes.js';
import { statsAdmin } from './service.js';

/** The console overview's figures (GET /admin/v1/stats). */
export const statsFeature = defineFeature({
  name: 'stats',
  needs: ['store', 'now'],
  provides: [],
  admin: ({ store, now }) => statsAdmin(store.db, now ?? Date.now),
  adminRoutes: [statsAdminRoutes],
});
