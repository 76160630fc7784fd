import { defineFeature } from '../../feature-kit/feature.js';
import { reportRoutes } from './routes.js';
import { reportService, type ReportService } from './service.js';
import { reportsMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    reports: ReportService;
  }
}

/** Reports (CSV and NDJSON exports), the monthly statement and the merchant search (docs/reports.md). */
export const reportsFeature = defineFeature({
  name: 'reports',
  migrations: reportsMigrations,
  needs: ['store'],
  provides: ['reports'],
  create: ({ store }) => ({ reports: reportService(store) }),
  merchantRoutes: [reportRoutes],
});
