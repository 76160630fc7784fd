import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';
import { gatedPool, PoolBusyError, PoolGate } from './pool-gate.js';
import { retrySerializationFailures } from './retry.js';
import { runSteps } from './steps.js';
import type { Store } from './store.js';

// NUMERIC stays a string (pg's default): money never passes through a float. timestamptz comes
// back as ISO 8601 UTC with milliseconds, the same text the SQLite store holds.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (text) => new Date(text).toISOString());
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));

export interface PostgresOptions {
  /** Pool size per instance. */
  max?: number;
  /** Fail a connection attempt after this long, so a dead database answers 503 quickly. */
  connectTimeoutMs?: number;
  /** Server-side statement timeout. */
  statementTimeoutMs?: number;
  /**
   * Client-side bound on waiting for a query's answer, for a database that stops answering
   * without closing the connection (network partition, frozen host), where the statement
   * timeout cannot fire. Default: the statement timeout and a quarter, so a database that is
   * merely slow still answers with its own statement timeout first.
   */
  readTimeoutMs?: number;
  /** Schema to use (tests give each run its own); created if missing. */
  schema?: string;
  /**
   * Requests waiting for a connection while all `max` are in use (pool-gate.ts): at most this
   * many (default 20 × max), each at most `queueTimeoutMs` (default 5 × connectTimeoutMs); past
   * either, 503 STORE_BUSY.
   */
  queueLimit?: number;
  queueTimeoutMs?: number;
}

/** A PostgreSQL store over a pg pool. `writeTransaction` is a plain transaction: row locks
 * (`lockForUpdate`) serialise the read-check-write sequences. */
export async function openPostgresStore(url: string, opts: PostgresOptions = {}): Promise<Store> {
  const schema = opts.schema;
  const statementTimeoutMs = opts.statementTimeoutMs ?? 5000;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 2000,
    statement_timeout: statementTimeoutMs,
    query_timeout: opts.readTimeoutMs ?? Math.ceil(statementTimeoutMs * 1.25),
    idle_in_transaction_session_timeout: 10_000,
    // client_connection_check_interval (PostgreSQL 14+): a statement whose instance died (kill -9)
    // while it waited on a lock is ended when the server sees the socket closed, and its locks
    // freed, instead of running on for nobody after the lock frees.
    options: `-c client_connection_check_interval=250${schema ? ` -c search_path=${schema}` : ''}`,
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // pg-pool listens for 'error' only on idle clients. A checked-out client whose connection breaks
  // (database stopped mid-query or mid-transaction) emits 'error' too, and with no listener that
  // is an uncaught exception that kills the process. The query in flight already fails with the
  // same error (503 UNAVAILABLE), and the pool discards the client when it is released.
  const connectTimeoutMs = opts.connectTimeoutMs ?? 2000;
  const gate = new PoolGate({
    max: opts.max ?? 10,
    queueLimit: opts.queueLimit ?? 20 * (opts.max ?? 10),
    queueTimeoutMs: opts.queueTimeoutMs ?? 5 * connectTimeoutMs,
    silenceMs: connectTimeoutMs,
    probe: async () => {
      const client = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: connectTimeoutMs,
        query_timeout: connectTimeoutMs,
      });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        client.end().catch(() => undefined);
      }
    },
  });
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
    closeOnReadTimeout(client, gate);
  });
  if (schema) {
    const client = await pool.connect();
    try {
      // Replicas starting together on a new schema would both pass IF NOT EXISTS, and one would
      // then fail on the catalog's unique index; the migrations' lock (migrate.ts) serialises them.
      await client.query('begin');
      await client.query('select pg_advisory_xact_lock(7426001)');
      await client.query(`create schema if not exists ${schema}`);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: gatedPool(pool, gate) }) });
  // Report pages (features/reports) read a thousand rows a query, back to back, for as long as a
  // download lasts. Through the main pool (Kysely, pg's per-query read timer) a long download left
  // the young generation promoting garbage and the RSS growing; a pool of their own without that
  // timer keeps it flat (docs/reports.md, "Benchmark"). Rows come as arrays, the statement timeout
  // still bounds each page on the server, and a read timer of its own, which holds no query,
  // closes a connection whose database went silent.
  const pagePool = () => {
    const p = new pg.Pool({
      connectionString: url,
      max: 4,
      connectionTimeoutMillis: connectTimeoutMs,
      statement_timeout: statementTimeoutMs,
      idle_in_transaction_session_timeout: 10_000,
      options: `-c client_connection_check_interval=250${schema ? ` -c search_path=${schema}` : ''}`,
    });
    p.on('error', () => undefined);
    p.on('connect', (client) => client.on('error', () => undefined));
    return p;
  };
  const pages = { pool: pagePool(), fresh: pagePool };
  const readTimeoutMs = opts.readTimeoutMs ?? Math.ceil(statementTimeoutMs * 1.25);
  let version = 0;
  let closed = false;
  const transaction: Store['writeTransaction'] = (fn) => retrySerializationFailures(() => db.transaction().execute(fn));
  return {
    dialect: 'postgres',
    db,
    // A transaction that lost a deadlock or a serialization check is run again (retry.ts).
    writeTransaction: transaction,
    schemaTransaction: transaction,
    // A retry after a deadlock starts the steps afresh: a generator runs once.
    writeSteps: (steps) =>
      retrySerializationFailures(() => db.transaction().execute((trx) => runSteps(trx, steps(trx)))),
    // Other instances' writes reach this one through the change feed (Redis), which bumps it.
    externalVersion: () => version,
    bumpExternalVersion: () => {
      version++;
    },
    arrayRows: (text, values) => arrayRows(pages, readTimeoutMs, text, values),
    async ping() {
      // Readiness asks whether the database answers, not whether a connection is free: a pool
      // busy with queries that come back is a live database (pool-gate.ts).
      // So it waits for a connection at most the connect timeout, and a wait that ends without
      // one while the database keeps answering the others is a live database.
      let release: () => void;
      try {
        release = await gate.acquire(connectTimeoutMs);
      } catch (err) {
        if (err instanceof PoolBusyError && (await gate.answers())) return;
        throw err;
      }
      try {
        const client = await pool.connect();
        try {
          await client.query('select 1');
          client.release();
        } catch (err) {
          client.release(true); // a connection that failed its probe is not handed out again
          throw err;
        }
      } finally {
        release();
      }
    },
    async close() {
      // A store may be closed twice (a failed start-up, then its owner): pg refuses a second end.
      if (closed) return;
      closed = true;
      await Promise.all([db.destroy(), pages.pool.end()]);
    },
  };
}

/**
 * pg's query_timeout fails the waiting query but leaves it outstanding on the connection, so every
 * later query on that connection queues behind it and times out in turn: a connection to a
 * database that stopped answering would be handed out by the pool for good, and the service would
 * never recover on it. Such a connection is dead; close it, and the pool opens a new one.
 */
function closeOnReadTimeout(client: pg.PoolClient, gate: PoolGate): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const result = gate.watch(query(...args));
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        if (err instanceof Error && err.message === 'Query read timeout') client.connection.stream.destroy();
      });
    }
    return result;
  }) as typeof client.query;
}

/**
 * A query on the report pages' pool, rows as arrays. A database that does not answer within
 * `readTimeoutMs` fails the page, and the pool is replaced (its connections cannot be told apart
 * from here; a silent one would otherwise be handed out again).
 */
async function arrayRows(
  pages: { pool: pg.Pool; fresh: () => pg.Pool },
  readTimeoutMs: number,
  text: string,
  values: readonly unknown[],
): Promise<unknown[][]> {
  const pool = pages.pool;
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (pages.pool === pool) {
        pages.pool = pages.fresh();
        pool.end().catch(() => undefined);
      }
      reject(new Error('Query read timeout'));
    }, readTimeoutMs);
  });
  try {
    const result = await Promise.race([pool.query({ text, values: [...values], rowMode: 'array' }), silent]);
    return result.rows as unknown[][];
  } finally {
    clearTimeout(timer);
  }
}

/** Drops a schema created for a test run. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  // A server that is still stopping may hold locks on the schema's tables; the drop then loses a
  // deadlock (40P01) and is simply tried again.
  for (let attempt = 1; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`drop schema if exists ${schema} cascade`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
    } finally {
      await client.end();
    }
    await new Promise((r) => setTimeout(r, 100 * attempt));
  }
}
