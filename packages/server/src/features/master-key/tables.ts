import type { Migration } from '../../store/migrate.js';
import * as m011 from './migrations/011-sealed-keys-urls.js';

/** No table of its own: the migrations it made to others', each with its global version. */
export const masterKeyMigrations: readonly Migration[] = [
  // Seals the catalog's account keys and the webhooks' URLs in place.
  { version: 11, name: 'sealed-keys-urls', up: m011.up },
];
