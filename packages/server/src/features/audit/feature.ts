import type { PageRequest } from '../../admin/pagination.js';
import { defineFeature } from '../../feature-kit/feature.js';
import { auditAdminRoutes } from './routes.js';
import { listAudit, type AuditFilter } from './service.js';
import { auditMigrations } from './tables.js';

/** The audit log every operator write records into, and its reader. */
export const auditFeature = defineFeature({
  name: 'audit',
  migrations: auditMigrations,
  needs: ['store'],
  provides: [],
  admin: ({ store }) => ({
    listAudit: (filter: AuditFilter, page: PageRequest) => listAudit(store.db, filter, page),
  }),
  adminRoutes: [auditAdminRoutes],
});
