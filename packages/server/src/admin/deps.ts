import type { SecretBox } from '../crypto/secret-box.js';
import { HostpayError } from '../errors.js';
import type { Store } from '../store/store.js';
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

export function invalid(message: string): never {
  throw new HostpayError('INVALID_BODY', message);
}
