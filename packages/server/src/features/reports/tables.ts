import type { Migration } from '../../store/migrate.js';
import * as m026 from './migrations/026-reports.js';

/** No table of its own: the migrations it made to others', each with its global version. */
export const reportsMigrations: readonly Migration[] = [
  // Indexes on other features' tables, for the reports' reads.
  { version: 26, name: 'reports', up: m026.up },
];
