import type { Caches } from '../../cache/caches.js';
import type { Db } from '../../store/store.js';
import type { RateTable } from './tables.js';
import { upsertRate } from './queries.js';

/**
 * The one way a rate is stored, by an operator (`setRate`: pins the pair) and by the feeds (never
 * over a pin). Call inside the write transaction; after it commits, `ratesChanged` drops what the
 * caches hold (fee facts and resolved rates live under the `fees` kind), here and on the other
 * instances. Returns false when a pin kept the feed's rate out.
 */
export function writeRate(trx: Db, row: RateTable, by: 'operator' | 'feed'): Promise<boolean> {
  return upsertRate(trx, row, by === 'operator');
}

export const ratesChanged = (caches: Caches) => caches.invalidate({ kind: 'fees' });
