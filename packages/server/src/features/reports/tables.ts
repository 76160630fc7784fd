import type { Migration } from '../../store/migrate.js';
import * as m026 from './migrations/026-reports.js';
import * as m027 from './migrations/027-reconciliation.js';

/** No table of its own: the migrations it made to others', each with its global version. */
export const reportsMigrations: readonly Migration[] = [
  // Indexes on other features' tables, for the reports' reads.
  { version: 26, name: 'reports', up: m026.up },
  // Operator reports across merchants and the reconciliation's payout timeline reads.
  { version: 27, name: 'reconciliation', up: m027.up },
];
