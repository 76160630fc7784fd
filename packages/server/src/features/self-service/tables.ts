import type { Migration } from '../../store/migrate.js';
import * as m020 from './migrations/020-dashboard-self-service.js';

/**
 * The self-service feature's part of the database: no table of its own, the migrations it made.
 */
/** The migrations of this feature's tables, each with its global version (the registry merges every feature's). */
export const selfServiceMigrations: readonly Migration[] = [
  // Also adds events.checkout_id (events), merchants' page columns and checkout and webhook indexes.
  { version: 20, name: 'dashboard-self-service', up: m020.up },
];
