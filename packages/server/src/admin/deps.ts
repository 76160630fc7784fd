import type { SecretBox } from '../crypto/secret-box.js';
import { HostpayError } from '../errors.js';
import type { Db, Store } from '../store/store.js';
import type { Caches } from '../cache/caches.js';

/** Who made a change, recorded with it in the audit log. */
export interface AuditContext {
  operator: string;
  requestId?: string | undefined;
}

export interface AdminDeps {
  store: Store;
  box: SecretBox;
  caches: Caches;
}

/** Reads a row or fails with 404 naming what was looked for. */
export async function required<T>(row: Promise<T | undefined>, what: string): Promise<T> {
  const value = await row;
  if (value === undefined) throw new HostpayError('NOT_FOUND', `${what} does not exist`);
  return value;
}

export async function requireMerchantRow(db: Db, id: string) {
  return required(db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst(), `merchant ${id}`);
}

export async function requireAssetRow(db: Db, symbol: string) {
  const row = await db.selectFrom('assets').selectAll().where('symbol', '=', symbol.toUpperCase()).executeTakeFirst();
  if (!row) throw new HostpayError('UNSUPPORTED_CURRENCY', `asset ${symbol} is not known`);
  return row;
}

export function invalid(message: string): never {
  throw new HostpayError('INVALID_BODY', message);
}

// Full date and time with seconds and an explicit offset: `2027-01-01` or `2027-01-01T00:00`
// (read by Date.parse in the server's local zone) would mean different instants on different hosts.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A time input as ISO 8601 in UTC, or null when it is not a full ISO 8601 time with an offset. */
export function isoTime(text: string): string | null {
  if (!ISO_TIME.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export const ISO_TIME_HELP =
  'a full ISO 8601 time with seconds and an offset, e.g. 2027-01-01T00:00:00Z or 2027-01-01T02:00:00+02:00';
