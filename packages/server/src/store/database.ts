/**
 * The store's table types. The kernel's own tables are written here; each feature adds its tables
 * from its own `features/<name>/tables.ts` (`declare module`, the way it adds provisions), so a
 * feature with a table touches nothing under store/.
 * Money columns are decimal text, times ISO 8601 UTC strings with milliseconds, booleans 0/1
 * integers, so both dialects agree.
 */

export interface AdminIdempotencyTable {
  operator: string;
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
  /** Who holds a pending claim (`<instance id>/<boot id>`) and until when; null before v10. */
  owner: string | null;
  lease_until: string | null;
}

export interface MigrationTable {
  version: number;
  name: string;
  applied_at: string;
}

/**
 * Signatures of state-changing merchant requests already accepted (v24): a second use is a replay
 * (auth/single-use.ts). Kept until the signature's timestamp leaves the acceptance window; only
 * used without Redis (or while it is down).
 */
export interface UsedSignatureTable {
  key_id: string;
  /** The lowercase hex signature: an HMAC over the timestamp, so it names the timestamp too. */
  signature: string;
  /** Epoch ms after which the entry may go (bigint: a number on SQLite, a string on PostgreSQL). */
  expires_ms: number | string;
}

/** Every table, by name: the kernel's here, the features' merged in from their tables.ts. */
export interface Database {
  hostpay_migrations: MigrationTable;
  admin_idempotency: AdminIdempotencyTable;
  used_signatures: UsedSignatureTable;
}
