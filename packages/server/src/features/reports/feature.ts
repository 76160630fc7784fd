import { defineFeature } from '../../feature-kit/feature.js';
import { reportAdminRoutes } from './admin-routes.js';
import { operatorReports } from './operator.js';
import { reportRoutes } from './routes.js';
import { reportService, type ReportService } from './service.js';
import { reportsMigrations } from './tables.js';

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    reports: ReportService;
  }
}

/** Reports (CSV and NDJSON exports), the monthly statement, the merchant search, and the operator's reports and reconciliation (docs/reports.md). */
export const reportsFeature = defineFeature({
  name: 'reports',
  migrations: reportsMigrations,
  needs: ['store', 'now'],
  provides: ['reports'],
  // The other kinds of objects the merchant search reads (payment links, invoices: search.ts).
  consumes: ['searchSources'],
  create: ({ store }, contributed) => ({ reports: reportService(store, { contributed: contributed.searchSources }) }),
  merchantRoutes: [reportRoutes],
  admin: ({ store, now }) => operatorReports(store, now ?? Date.now),
  adminRoutes: [reportAdminRoutes],
});
