import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Opaque, prefixed identifiers (`wal_…`, `mer_…`): the prefix tells a reader what it names. */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = prefix + '_';
  for (const b of bytes) out += ALPHABET[b % 36];
  return out;
}

export function nowIso(): string {
  return new Date().toISOString();
}
