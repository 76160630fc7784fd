import { defineFeature } from '../../feature-kit/feature.js';
import { merchantAdminRoutes } from './routes.js';
import { merchantAdmin } from './service.js';

export const merchantsFeature = defineFeature({
  name: 'merchants',
  needs: ['store', 'box', 'caches'],
  provides: [],
  admin: merchantAdmin,
  adminRoutes: [merchantAdminRoutes],
});
