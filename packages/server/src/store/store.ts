import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { Steps } from './steps.js';

/**
 * A store: the query layer plus the few things that differ by dialect. Repositories take a
 * `Kysely<Database>` (the store's or a transaction's), so the same functions serve both.
 */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  readonly db: Kysely<Database>;
  /**
   * Runs `fn` in a transaction that holds the write lock from its first statement (SQLite
   * `BEGIN IMMEDIATE`), so read-check-write sequences such as ledger postings cannot interleave.
   */
  writeTransaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * A write transaction of a migration (store/migrate.ts), as writeTransaction. SQLite does not
   * count it among the writes that start its checkpoint worker: the 36 commits of a fresh
   * database's schema made every new server start a thread with its own V8 isolate (~12 MB of an
   * idle server's RSS, issue 44) that only a server taking writes needs.
   */
  schemaTransaction<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * SQLite only: runs `script` (many statements) in one write transaction when the database holds
   * no table yet, and says whether it did. A fresh store's whole schema in one step instead of a
   * transaction per migration (store/migrate.ts, src/sqlite-schema.ts).
   */
  createFreshSchema?: ((script: string) => Promise<boolean>) | undefined;
  /**
   * A write transaction made of steps (steps.ts), given the Kysely to build its statements with.
   * SQLite runs it synchronously inside the group commit (no promise tick per statement);
   * PostgreSQL awaits each statement in a transaction, as writeTransaction.
   */
  writeSteps<T>(steps: (db: Kysely<Database>) => Steps<T>): Promise<T>;
  /**
   * A number that changes whenever another process commits to the store (SQLite
   * `PRAGMA data_version`). Caches compare it to drop entries another writer made stale.
   */
  externalVersion(): number;
  /** Marks the store as changed by someone else (a change-feed message from another instance). */
  bumpExternalVersion?(): void;
  /**
   * A read-only statement's rows as arrays of column values, for report pages: on PostgreSQL on a
   * small pool of its own (store/postgres.ts says why they do not go through `db`), on SQLite
   * built by better-sqlite3 itself (store/sqlite.ts). No row objects, and no JavaScript literal
   * per row whose allocation site V8 could decide to place in the old generation.
   */
  arrayRows(text: string, values: readonly unknown[]): Promise<unknown[][]>;
  /** Cheap liveness probe of the store. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type Db = Kysely<Database>;
