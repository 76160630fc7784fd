import type { Migration } from '../../store/migrate.js';
import * as m003 from './migrations/003-operations.js';

// The audit feature's tables (added to the store's Database below) and the migrations that made them.

export interface AuditLogTable {
  id: string;
  at: string;
  /** Name of the operator token (or `cli:<user>`, `demo`) that made the change. */
  operator: string;
  action: string;
  object_type: string;
  object_id: string;
  /** JSON of the object before and after, never containing a secret. */
  before: string | null;
  after: string | null;
  request_id: string | null;
}

declare module '../../store/database.js' {
  interface Database {
    audit_log: AuditLogTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const auditMigrations: readonly Migration[] = [
  // Also creates admin_idempotency (the kernel's, http/idempotency.ts) and server_secrets (tokens), and adds api_keys columns (keys).
  { version: 3, name: 'operations', up: m003.up },
];
