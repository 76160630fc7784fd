import type { Migration } from '../../store/migrate.js';
import * as m020 from './migrations/020-dashboard-self-service.js';
import * as m029 from './migrations/029-seller-details.js';
import * as m035 from './migrations/035-brand-and-language.js';

/** No table of its own: the migrations it made to others', each with its global version. */
export const selfServiceMigrations: readonly Migration[] = [
  // Adds events.checkout_id (events), the merchants' page columns, and checkout and webhook indexes.
  { version: 20, name: 'dashboard-self-service', up: m020.up },
  // The merchants' seller details, invoice prefix and receipt-mail switch.
  { version: 29, name: 'seller-details', up: m029.up },
  // The merchants' page colours and default language.
  { version: 35, name: 'brand-and-language', up: m035.up },
];
