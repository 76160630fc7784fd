import type { ReportRow } from '@hostpay/protocol';
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../store/store.js';
import type { TimeRange } from './range.js';

/**
 * A report row made by a constructor. Rows are written as object literals for readability, but
 * a literal has an allocation site V8 tracks: when most of its objects outlive a young-generation
 * collection (a page held while the one before it is encoded), V8 allocates every later one
 * straight in the old generation, and an export's garbage piles up there until a full collection
 * (up to 150 MB over a few hundred thousand rows, docs/reports.md "Benchmark"). The literal handed
 * to `new ReportRecord` dies at once, so its site is never pretenured, and a constructor's objects
 * have no site.
 */
export class ReportRecord {
  [column: string]: ReportRow[string];
  constructor(fields: ReportRow) {
    Object.assign(this, fields);
  }
}

/** Where the next page starts: after this (time, id). */
export interface Cursor {
  at: string;
  id: string;
}

/** One page of a report: its rows, oldest first, and the key of its last row (null: none). */
export interface Page {
  rows: ReportRow[];
  last: Cursor | null;
}

/** What every page query gets: the merchant (null: every merchant, the operator's reports), the range, the key to start after, the page size. */
export interface PageRequest {
  db: Db;
  dialect: 'sqlite' | 'postgres';
  merchantId: string | null;
  range: TimeRange;
  after: Cursor | null;
  limit: number;
  /** The store's array path (`Store.arrayRows`, both stores), for the ledger's pages; absent, the query builder reads them. */
  arrayRows?: ((text: string, values: readonly unknown[]) => Promise<unknown[][]>) | undefined;
}

/** Reads one page of a report kind: each page is its own short query (no transaction held for the download). */
export type PageReader = (req: PageRequest) => Promise<Page>;

/** Groups rows by a key, keeping their order. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list === undefined) out.set(k, [row]);
    else list.push(row);
  }
  return out;
}

/** The key of a page's last row, from its time and id columns. */
export function lastOf<T>(rows: readonly T[], at: (row: T) => string, id: (row: T) => string): Cursor | null {
  const row = rows[rows.length - 1];
  return row === undefined ? null : { at: at(row), id: id(row) };
}

/**
 * The range and the keyset of (time, id): `time >= start and (time > start or id > after.id)`, so
 * PostgreSQL range-scans the time and SQLite its index.
 */
export function keysetWhere(req: PageRequest, time: string, id: string): RawBuilder<SqlBool> {
  const t = sql.ref(time);
  const { to } = req.range;
  if (req.after === null) return sql<SqlBool>`(${t} >= ${req.range.from} and ${t} < ${to})`;
  const { at, id: afterId } = req.after;
  return sql<SqlBool>`(${t} >= ${at} and ${t} < ${to} and (${t} > ${at} or ${sql.ref(id)} > ${afterId}))`;
}

/**
 * The pager every kind reads through: `query`'s rows in the range after the request's cursor,
 * oldest first by (`time`, `id`), at most the page size. One short query, no transaction.
 */
export function keysetRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  req: PageRequest,
  time: string,
  id: string,
): Promise<O[]> {
  return query
    .where(keysetWhere(req, time, id))
    .orderBy(sql.ref(time))
    .orderBy(sql.ref(id))
    .limit(req.limit)
    .execute();
}

/** A page: the rows made of `rows`, and the cursor after `rows`' last, read by `at` and `id`. */
export function pageOf<T>(rows: readonly T[], out: ReportRow[], at: (row: T) => string, id: (row: T) => string): Page {
  return { rows: out, last: lastOf(rows, at, id) };
}
