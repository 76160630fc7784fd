import type { Db } from '../../store/store.js';
import type { RatePairTable, RateSourceTable, RateTable } from './tables.js';

export type RateRow = RateTable;
export type RateSourceRow = RateSourceTable;

/** Rate for base -> quote, directly or as the inverse of quote -> base. */
export function findRates(db: Db, base: string, quote: string): Promise<RateRow[]> {
  return db
    .selectFrom('rates')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('base', '=', base), eb('quote', '=', quote)]),
        eb.and([eb('base', '=', quote), eb('quote', '=', base)]),
      ]),
    )
    .execute();
}

export function findRate(db: Db, base: string, quote: string): Promise<RateRow | undefined> {
  return db.selectFrom('rates').selectAll().where('base', '=', base).where('quote', '=', quote).executeTakeFirst();
}

export function listRateRows(db: Db): Promise<RateRow[]> {
  return db.selectFrom('rates').selectAll().orderBy('base').orderBy('quote').execute();
}

/**
 * Stores a rate. `overPin` false (a feed): an operator's pinned rate is left as it is, in the
 * same statement, so a feed racing an operator's write can never replace it.
 */
export async function upsertRate(db: Db, row: RateRow, overPin: boolean): Promise<boolean> {
  const r = await db
    .insertInto('rates')
    .values(row)
    .onConflict((oc) => {
      const set = oc.columns(['base', 'quote']).doUpdateSet({
        rate: row.rate,
        source: row.source,
        updated_at: row.updated_at,
        fetched_at: row.fetched_at,
        max_age_seconds: row.max_age_seconds,
        pinned: row.pinned,
      });
      return overPin ? set : set.where('rates.pinned', '=', 0);
    })
    .executeTakeFirst();
  return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export function findSource(db: Db, id: string): Promise<RateSourceRow | undefined> {
  return db.selectFrom('rate_sources').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listSources(db: Db): Promise<RateSourceRow[]> {
  return db.selectFrom('rate_sources').selectAll().orderBy('id').execute();
}

export function listPairRules(db: Db): Promise<RatePairTable[]> {
  return db.selectFrom('rate_pairs').selectAll().orderBy('base').orderBy('quote').execute();
}

export const pairsOf = (row: Pick<RateSourceRow, 'pairs'>): string[] => JSON.parse(row.pairs) as string[];
