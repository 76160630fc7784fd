import type { Migration } from '../../store/migrate.js';

/**
 * The tokens feature's tables: their row types, merged into the store's `Database` (the way
 * features add their provisions), so queries anywhere type-check against every registered table.
 * Money columns are decimal text, times ISO 8601 UTC strings with milliseconds, booleans 0/1
 * integers, so both dialects agree.
 */

export interface ServerSecretTable {
  name: string;
  sealed: string;
  created_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    server_secrets: ServerSecretTable;
  }
}

/** The migrations of this feature's tables: none of its own (server_secrets was created by migration 3 (audit's "operations").) */
export const tokensMigrations: readonly Migration[] = [];
