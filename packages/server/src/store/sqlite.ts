import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { walCheckpointer } from './checkpointer.js';
import { groupCommit } from './group-commit.js';
import type { Database } from './database.js';
import { runStepsNow, type SyncConnection } from './steps.js';
import type { Store } from './store.js';

/**
 * The WAL checkpointer thread (store/checkpointer.ts) starts once WRITES_BEFORE_WORKER write
 * transactions (not counting migrations') come within one window of WORKER_WINDOW_MS.
 */
const WRITES_BEFORE_WORKER = 32;
const WORKER_WINDOW_MS = 2000;

/** Opens (creating if needed) an embedded SQLite store in WAL mode. `:memory:` for tests. */
export function openSqliteStore(file: string): Store {
  if (file !== ':memory:') createPrivately(file);
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  raw.pragma('foreign_keys = ON');
  // Another process (the CLI next to a running server) may hold the write lock briefly.
  raw.pragma('busy_timeout = 5000');
  // Each write transaction of a group commit runs in a savepoint, whose sub-journal spilled to a
  // temporary file past 64 KB: a page copy written to disk per page changed, on the serving thread.
  raw.pragma('temp_store = MEMORY');
  const dataVersion = raw.prepare('PRAGMA data_version').pluck();
  const hasObjects = () => raw.prepare('select exists (select 1 from sqlite_master) as found').pluck().get() === 1;
  // Kysely prepares every query again; preparing was ~12 % of a checkout create's CPU. Statements
  // are cached by their SQL text (bounded: ids and amounts are parameters, so the set of texts is
  // small); better-sqlite3 runs synchronously, so a cached statement is never used twice at once.
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max: 500 });
  const database = {
    close: () => raw.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = raw.prepare(text);
        statements.set(text, statement);
      }
      return statement;
    },
  };
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  // Report pages as arrays (Store.arrayRows): better-sqlite3 builds them natively, so a page is
  // no row objects of the query layer's and no JavaScript literal per row (docs/reports.md).
  const arrayStatements = new LRUCache<string, BetterSqlite3.Statement>({ max: 100 });
  const checkpoints = file === ':memory:' ? undefined : walCheckpointer(raw, file);
  const commit = groupCommit(db, syncConnection(raw, database.prepare), checkpoints?.gate);
  // Writes in the current window of WORKER_WINDOW_MS, from its first; none counted once started.
  let windowStart = Number.NEGATIVE_INFINITY;
  let inWindow = 0;
  let worker = false;
  const started = () => {
    // Started by a store that writes often: a CLI command's few writes never pay for the thread
    // (~30 ms to start and stop), nor an idle server's background jobs (the mail sender's two
    // writes every 2 s, lease renewals), which would start it ~30 s after boot for nothing
    // (its own V8 isolate, ~12 MB); SQLite's own checkpoint serves them.
    if (worker || checkpoints === undefined) return;
    const now = performance.now();
    if (now - windowStart > WORKER_WINDOW_MS) {
      windowStart = now;
      inWindow = 0;
    }
    if (++inWindow === WRITES_BEFORE_WORKER) {
      worker = true;
      checkpoints.start();
    }
  };

  return {
    dialect: 'sqlite',
    db,
    writeTransaction(fn) {
      started();
      return commit.writeTransaction(fn);
    },
    schemaTransaction: (fn) => commit.writeTransaction(fn),
    async createFreshSchema(script) {
      // Read first: a restart finds tables and opens no write transaction.
      if (hasObjects()) return false;
      return commit.writeNow(() => {
        // Again under the write lock: another process may have built it since.
        if (hasObjects()) return false;
        raw.exec(script);
        return true;
      });
    },
    writeSteps(steps) {
      started();
      return commit.writeNow((trx) => runStepsNow(trx, steps(trx.db)));
    },
    externalVersion: () => dataVersion.get() as number,
    async arrayRows(text, values) {
      let statement = arrayStatements.get(text);
      if (statement === undefined) {
        statement = raw.prepare(text);
        if (!statement.reader) throw new Error('arrayRows reads: the statement returns no rows');
        statement.raw(true);
        arrayStatements.set(text, statement);
      }
      return statement.all(values as unknown[]) as unknown[][];
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await checkpoints?.stop();
      await db.destroy();
    },
  };
}

/** The one connection, synchronously, through the same cached statements as Kysely's queries. */
function syncConnection(
  raw: BetterSqlite3.Database,
  prepare: (text: string) => BetterSqlite3.Statement,
): SyncConnection {
  return {
    exec(text, parameters) {
      const statement = prepare(text);
      if (statement.reader) return { rows: statement.all(parameters as unknown[]), changes: undefined };
      return { rows: [], changes: statement.run(parameters as unknown[]).changes };
    },
    inTransaction: () => raw.inTransaction,
  };
}

/**
 * The store holds sealed secrets and the ledger: a directory we create is 0700 and a database file
 * we create is 0600 whatever the umask (SQLite gives its -wal and -shm files the database file's
 * permissions). Existing directories and files are left as the operator set them.
 */
function createPrivately(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
