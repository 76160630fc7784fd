import { defineFeature } from '../../feature-kit/feature.js';
import { dashboardPageRoutes } from './routes.js';

/**
 * The merchant dashboard's pages at /dashboard (packages/server/dashboard, built into
 * dist/dashboard). The pages only call the merchant API and the account routes with the session
 * cookie; this feature serves the files.
 */
export const dashboardFeature = defineFeature({
  name: 'dashboard',
  needs: [],
  provides: [],
  merchantRoutes: [dashboardPageRoutes],
});
