import type { Migration } from '../../store/migrate.js';
import * as m008 from './migrations/008-console-sessions.js';

// The console feature's tables (added to the store's Database below) and the migrations that made them.

export interface ConsoleSessionTable {
  /** SHA-256 hex of the session id (the cookie value); the id itself is never stored. */
  id_hash: string;
  operator: string;
  /** First 16 hex of SHA-256(SHA-256(operator token)): a changed or removed token ends its sessions. */
  token_fingerprint: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end of the session, however active. */
  expires_at: string;
}

declare module '../../store/database.js' {
  interface Database {
    console_sessions: ConsoleSessionTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const consoleMigrations: readonly Migration[] = [{ version: 8, name: 'console-sessions', up: m008.up }];
