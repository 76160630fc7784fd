import { CompiledQuery, type Compilable, type Kysely, type QueryResult, type RawBuilder } from 'kysely';
import type { Database } from './database.js';

// The store's query layer (store.ts's Db, named here to keep store.ts and this file out of a loop).
type Db = Kysely<Database>;

/**
 * Write paths written once for both ways of running them (issue 44): as a generator that yields
 * each statement and is handed back its result. `runSteps` awaits each through Kysely (any store,
 * any transaction); `runStepsNow` runs each synchronously on SQLite's one connection, inside the
 * group commit (store/group-commit.ts), so a turn's checkout creates cost no promise tick per
 * statement. A step never awaits anything else: what it needs before writing (prices, keys) is
 * computed before its first yield or between yields, synchronously.
 */

/** SQLite's connection, synchronously: only inside a write of the group commit. */
export interface SyncConnection {
  /** Runs one statement: its rows when it returns any, else how many rows it changed. */
  exec(sql: string, parameters: readonly unknown[]): { rows: unknown[]; changes: number | undefined };
  inTransaction(): boolean;
}

/** What a synchronous write is given: the connection, and the store's Kysely to build statements with (never to run them). */
export interface SyncTrx {
  readonly db: Db;
  readonly conn: SyncConnection;
}

/** A statement built once and run with new values (prepared.ts). */
export interface PreparedCall {
  readonly prepared: {
    sqlOf(db: Db): { sql: string; parameters(args: Record<string, unknown>): unknown[] };
  };
  readonly args: Record<string, unknown>;
}

export type Step = Compilable<unknown> | RawBuilder<unknown> | PreparedCall;

/**
 * A write path: yields statements, receives each one's result, returns its value. The result's
 * rows are typed where they are received (`const r: QueryResult<Row> = yield …`), as Kysely's
 * own raw queries are.
 */
// biome-ignore lint/suspicious/noExplicitAny: a generator has one type for every yield's result; each step names its rows.
export type Steps<T> = Generator<Step, T, QueryResult<any>>;

const isPrepared = (step: Step): step is PreparedCall => 'prepared' in step;

/** A step's text and parameters (a prepared one's straight from its cached entry). */
function statementOf(db: Db, step: Step): { sql: string; parameters: readonly unknown[] } {
  if ('isRawBuilder' in step) return step.compile(db);
  if (!isPrepared(step)) return step.compile();
  const entry = step.prepared.sqlOf(db);
  return { sql: entry.sql, parameters: entry.parameters(step.args) };
}

/** Runs `steps` through Kysely on `db` (a transaction, or the store). */
export async function runSteps<T>(db: Db, steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (next.done !== true) {
    let result: QueryResult<unknown>;
    try {
      const { sql, parameters } = statementOf(db, next.value);
      result = await db.executeQuery(CompiledQuery.raw(sql, parameters as unknown[]));
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}

/** Runs `steps` now, on SQLite's connection inside a write of the group commit. */
export function runStepsNow<T>(trx: SyncTrx, steps: Steps<T>): T {
  let next = steps.next();
  // Only a failed statement can end the transaction (the group commit opened it): asked after one.
  let failed = false;
  while (next.done !== true) {
    let result: QueryResult<unknown>;
    try {
      // A step that caught an error which ended the transaction (a full disk) must not go on
      // writing outside it, one autocommitted statement at a time.
      if (failed && !trx.conn.inTransaction()) throw new Error('the write transaction ended: this write is not kept');
      const { sql, parameters } = statementOf(trx.db, next.value);
      const executed = trx.conn.exec(sql, parameters);
      // As Kysely's SQLite driver: a count for a statement that returns no rows, none for one that does.
      result =
        executed.changes === undefined
          ? { rows: executed.rows }
          : { rows: executed.rows, numAffectedRows: BigInt(executed.changes) };
    } catch (err) {
      failed = true;
      next = steps.throw(err);
      continue;
    }
    next = steps.next(result);
  }
  return next.value;
}
