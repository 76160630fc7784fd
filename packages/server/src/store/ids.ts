import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
let lastMs = 0;
let sequence = 0;

/**
 * Opaque, prefixed identifiers (`wal_…`, `pst_…`): the prefix tells a reader what it names. The
 * first 12 characters after the prefix are the time in base 36 plus a per-process sequence, so
 * ids sort in creation order (pagination and posting history rely on it); the rest is random.
 */
/**
 * Random bytes from a pooled buffer refilled 4 KB at a time: one `randomBytes` call per id was
 * ~3 % of a checkout create (a fresh buffer and a system call for 12–20 bytes each time).
 */
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;
export function randomChunk(length: number): Buffer {
  if (length > pool.length) throw new RangeError(`randomChunk(${length}): at most ${pool.length} bytes`);
  if (poolAt + length > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += length;
  // A copy: a caller keeping the bytes must not see them change on the next refill.
  return Buffer.from(pool.subarray(poolAt - length, poolAt));
}

export function newId(prefix: string, randomLength = 12): string {
  const now = Date.now();
  if (now === lastMs) sequence++;
  else {
    lastMs = now;
    sequence = 0;
  }
  let out = `${prefix}_${now.toString(36).padStart(9, '0')}${(sequence % 46656).toString(36).padStart(3, '0')}`;
  // Straight from the pool (nothing keeps the bytes), indexed: no copy, no iterator.
  if (poolAt + randomLength > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  for (let i = poolAt; i < poolAt + randomLength; i++) out += ALPHABET[pool[i]! % 36];
  poolAt += randomLength;
  return out;
}

export function nowIso(): string {
  return new Date().toISOString();
}
