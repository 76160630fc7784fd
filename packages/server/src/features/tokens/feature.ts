import { defineFeature } from '../../feature-kit/feature.js';
import { tokenRoutes } from './routes.js';
import { tokensMigrations } from './tables.js';

/** POST /api/v1/auth/token; the signing key is the kernel's (loaded by createServices). */
export const tokensFeature = defineFeature({
  name: 'tokens',
  migrations: tokensMigrations,
  needs: [],
  provides: [],
  merchantRoutes: [tokenRoutes],
});
