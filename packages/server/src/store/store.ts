import type { Kysely } from 'kysely';
import type { Database } from './database.js';

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
   * A number that changes whenever another process commits to the store (SQLite
   * `PRAGMA data_version`). Caches compare it to drop entries another writer made stale.
   */
  externalVersion(): number;
  /** Marks the store as changed by someone else (a change-feed message from another instance). */
  bumpExternalVersion?(): void;
  /** Cheap liveness probe of the store. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type Db = Kysely<Database>;
