import { CompiledQuery, type Compilable, type Insertable, type QueryResult } from 'kysely';
import type { Database } from './database.js';
import type { PreparedCall } from './steps.js';
import type { Db } from './store.js';

/**
 * A statement built with Kysely once per database dialect and run again with new values: the
 * statements a create runs differ only in their values, so building their text each time was
 * wasted work (docs/benchmarks.md, "Why the store is shaped this way").
 *
 * `build` receives one placeholder per name and must use each as a single value, never to choose
 * the query's shape nor as a list (`in` takes one parameter per element, so a list's length is
 * part of the text): the first call compiles it with unique marker values and records where each
 * parameter comes from (a named argument, or a constant the query itself holds, such as the `1`
 * of `n + 1`). Later calls send the recorded text with the arguments put in those places, so the
 * statement and its parameters are what building it again would give.
 */
export function prepared<N extends string, R = unknown>(
  names: readonly N[],
  build: (db: Db, values: Record<N, unknown>) => Compilable<R>,
) {
  type Slot = { arg: N } | { value: unknown };
  type Entry = { sql: string; parameters(args: Record<string, unknown>): unknown[] };
  // By the dialect's adapter: a transaction shares its database's, so one compile serves both.
  const compiled = new WeakMap<object, Entry>();

  function compile(db: Db): Entry {
    const markers = new Map<unknown, N>();
    const values = {} as Record<N, unknown>;
    for (const name of names) {
      const marker = `\u0000hostpay:${name}\u0000`;
      markers.set(marker, name);
      values[name] = marker;
    }
    const query = build(db, values).compile();
    const used = new Set<N>();
    const slots = query.parameters.map((p): Slot => {
      const arg = markers.get(p);
      if (arg === undefined) return { value: p };
      used.add(arg);
      return { arg };
    });
    const unused = names.filter((n) => !used.has(n));
    if (unused.length > 0) throw new Error(`prepared statement never uses ${unused.join(', ')}: ${query.sql}`);
    return {
      sql: query.sql,
      parameters: (args) => slots.map((s) => ('arg' in s ? args[s.arg] : s.value)),
    };
  }

  function entryOf(db: Db): Entry {
    const adapter = db.getExecutor().adapter;
    let entry = compiled.get(adapter);
    if (entry === undefined) {
      entry = compile(db);
      compiled.set(adapter, entry);
    }
    return entry;
  }
  // For a write path made of steps (steps.ts): the text and how to fill its parameters.
  const statement = {
    sqlOf: (db: Db) => entryOf(db),
  };

  const run = (db: Db, args: Record<N, unknown>): Promise<QueryResult<R>> => {
    let entry: Entry;
    try {
      entry = entryOf(db);
    } catch (err) {
      return Promise.reject(err);
    }
    return db.executeQuery(CompiledQuery.raw(entry.sql, entry.parameters(args)) as CompiledQuery<R>);
  };
  /** This statement with `args`, as a step of a write path (steps.ts). */
  run.step = (args: Record<N, unknown>): PreparedCall => ({ prepared: statement, args });
  return run;
}

type InsertFn = ReturnType<typeof prepared<string>>;
const inserts = new Map<string, InsertFn>();

/** Per table, the shape of its last insert: a create inserts the same shapes again and again. */
const lastShape = new Map<string, { columns: string[]; insert: InsertFn }>();

function sameShape(columns: string[], row: Record<string, unknown>): boolean {
  let n = 0;
  for (const c in row) {
    if (row[c] === undefined) continue;
    if (columns[n] !== c) return false;
    n++;
  }
  return n === columns.length;
}

function insertOf(table: keyof Database & string, row: Record<string, unknown>): InsertFn {
  const last = lastShape.get(table);
  if (last !== undefined && sameShape(last.columns, row)) return last.insert;
  // As Kysely does: a column whose value is undefined is left out.
  const columns = Object.keys(row).filter((c) => row[c] !== undefined);
  const key = `${table}(${columns.join(',')})`;
  let insert = inserts.get(key);
  if (insert === undefined) {
    insert = prepared(columns, (d, values) => d.insertInto(table).values(values as never));
    inserts.set(key, insert);
  }
  lastShape.set(table, { columns, insert });
  return insert;
}

/**
 * `insert into <table> (<the row's columns>) values (…)` through `prepared`: one compiled text per
 * table and set of columns, in the row's key order (a few shapes per table: the set is small).
 */
export function insertRow<T extends keyof Database & string>(
  db: Db,
  table: T,
  row: Insertable<Database[T]>,
): Promise<QueryResult<unknown>> {
  return insertOf(table, row as Record<string, unknown>)(db, row as Record<string, unknown>);
}

/** insertRow as a step of a write path (steps.ts). */
export function insertRowStep<T extends keyof Database & string>(table: T, row: Insertable<Database[T]>): PreparedCall {
  return insertOf(table, row as Record<string, unknown>).step(row as Record<string, unknown>);
}
