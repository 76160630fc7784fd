import { defineFeature } from '../../feature-kit/feature.js';
import { publicRoutes } from './routes.js';

/** Time, health, readiness and metrics: public routes, no service of their own. */
export const systemFeature = defineFeature({ name: 'system', needs: [], provides: [], merchantRoutes: [publicRoutes] });
