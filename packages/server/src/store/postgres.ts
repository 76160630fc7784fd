import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
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
  /** Schema to use (tests give each run its own); created if missing. */
  schema?: string;
}

/** A PostgreSQL store over a pg pool. `writeTransaction` is a plain transaction: row locks
 * (`lockForUpdate`) serialise the read-check-write sequences. */
export async function openPostgresStore(url: string, opts: PostgresOptions = {}): Promise<Store> {
  const schema = opts.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 2000,
    statement_timeout: opts.statementTimeoutMs ?? 5000,
    idle_in_transaction_session_timeout: 10_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  if (schema) {
    const client = await pool.connect();
    try {
      await client.query(`create schema if not exists ${schema}`);
    } finally {
      client.release();
    }
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let version = 0;
  return {
    dialect: 'postgres',
    db,
    writeTransaction: (fn) => db.transaction().execute(fn),
    // Other instances' writes reach this one through the change feed (Redis), which bumps it.
    externalVersion: () => version,
    bumpExternalVersion: () => {
      version++;
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
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
