import type { Migration } from '../../store/migrate.js';
import * as m011 from './migrations/011-sealed-keys-urls.js';

/**
 * The master-key feature's part of the database: no table of its own, the migrations it made.
 */
/** The migrations of this feature's tables, each with its global version (the registry merges every feature's). */
export const masterKeyMigrations: readonly Migration[] = [
  // Seals the catalog's account keys and the webhooks' URLs in place.
  { version: 11, name: 'sealed-keys-urls', up: m011.up },
];
