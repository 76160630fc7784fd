import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.js';
import { gatedPool, PoolBusyError, PoolGate } from './pool-gate.js';
import { retrySerializationFailures } from './retry.js';
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
  let version = 0;
  return {
    dialect: 'postgres',
    db,
    // A transaction that lost a deadlock or a serialization check is run again (retry.ts).
    writeTransaction: (fn) => retrySerializationFailures(() => db.transaction().execute(fn)),
    // Other instances' writes reach this one through the change feed (Redis), which bumps it.
    externalVersion: () => version,
    bumpExternalVersion: () => {
      version++;
    },
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
      await db.destroy();
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

/** Drops a schema created for a test run. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}
