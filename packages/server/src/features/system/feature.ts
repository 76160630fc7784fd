import { defineFeature } from '../../feature-kit/feature.js';
import './health.js';
import { publicRoutes } from './routes.js';

/**
 * Time, health, readiness and metrics: public routes. Other features' background work reports in
 * them through the `health` point (system/health.ts).
 */
export const systemFeature = defineFeature({
  name: 'system',
  needs: [],
  provides: ['healthReports'],
  consumes: ['health'],
  create: (_deps, contributed) => ({ healthReports: contributed.health }),
  merchantRoutes: [publicRoutes],
});
