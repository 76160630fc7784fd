import type { Migration } from '../../store/migrate.js';
import * as m026 from './migrations/026-reports.js';

/**
 * The reports feature's part of the database: no table of its own, the migrations it made.
 */
/** The migrations of this feature's tables, each with its global version (the registry merges every feature's). */
export const reportsMigrations: readonly Migration[] = [
  // Indexes on other features' tables, for the reports' reads.
  { version: 26, name: 'reports', up: m026.up },
];
