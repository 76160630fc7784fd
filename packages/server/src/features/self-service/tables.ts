import type { Migration } from '../../store/migrate.js';
import * as m020 from './migrations/020-dashboard-self-service.js';

/** No table of its own: the migrations it made to others', each with its global version. */
export const selfServiceMigrations: readonly Migration[] = [
  // Adds events.checkout_id (events), the merchants' page columns, and checkout and webhook indexes.
  { version: 20, name: 'dashboard-self-service', up: m020.up },
];
