import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
let lastMs = 0;
let sequence = 0;

/**
 * Opaque, prefixed identifiers (`wal_…`, `pst_…`): the prefix tells a reader what it names. The
 * first 12 characters after the prefix are the time in base 36 plus a per-process sequence, so
 * ids sort in creation order (pagination and posting history rely on it); the rest is random.
 */
export function newId(prefix: string, randomLength = 12): string {
  const now = Date.now();
  if (now === lastMs) sequence++;
  else {
    lastMs = now;
    sequence = 0;
  }
  let out = `${prefix}_${now.toString(36).padStart(9, '0')}${(sequence % 46656).toString(36).padStart(3, '0')}`;
  for (const b of randomBytes(randomLength)) out += ALPHABET[b % 36];
  return out;
}

export function nowIso(): string {
  return new Date().toISOString();
}
