import type { Migration } from '../../store/migrate.js';

// The tokens feature's tables (added to the store's Database below) and the migrations that made them.

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

/** None of its own: migration 3 (audit's "operations") created server_secrets. */
export const tokensMigrations: readonly Migration[] = [];
