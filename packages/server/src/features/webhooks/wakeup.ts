import { PostgresAdapter, sql } from 'kysely';
import type pg from 'pg';
import type { Db } from '../../store/store.js';

/**
 * Wakes the delivery workers as soon as deliveries commit, so a delivery waits for the poll
 * (250 ms) only when a wake-up was missed. PostgreSQL: `pg_notify` in the transaction that queues
 * them, which PostgreSQL delivers at commit to every instance LISTENing on the schema's channel
 * (and to none if it rolls back). SQLite is one process: its started workers are woken right
 * away; their first query waits for the store's one connection, so it runs after the commit.
 */

/** Subscribes `wake` to the wake-ups of one store; the handle ends the subscription. */
export type WakeSubscription = (wake: () => void) => { stop(): Promise<void> };

const localWorkers = new Set<() => void>();
let localScheduled = false;

function wakeLocal(): void {
  localScheduled = false;
  for (const wake of localWorkers) wake();
}

/** SQLite: the workers of this process. */
export const localWakeups: WakeSubscription = (wake) => {
  localWorkers.add(wake);
  return {
    stop: async () => {
      localWorkers.delete(wake);
    },
  };
};

/** A transaction's dialect, told by its adapter (no query compiled in the commit path). */
const isPostgres = (trx: Db): boolean => trx.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The channel of the schema in use, computed by PostgreSQL on both sides so they cannot differ:
 * channel names are identifiers (at most 63 bytes) and a schema name may be that long alone.
 */
const CHANNEL = "'hpwh_' || md5(current_schema())";

/** Called in the transaction that queued deliveries. */
export async function announceQueued(trx: Db): Promise<void> {
  if (isPostgres(trx)) {
    await sql`select pg_notify(${sql.raw(CHANNEL)}, '')`.execute(trx);
    return;
  }
  if (localWorkers.size > 0 && !localScheduled) {
    localScheduled = true;
    setImmediate(wakeLocal);
  }
}

const RECONNECT_MS = 1000;
const HEARTBEAT_MS = 5000;

/**
 * PostgreSQL: one dedicated connection LISTENs on the schema's channel (outside the pool). When it
 * is down the worker still polls; on every (re)connect it is woken once, since notifications may
 * have been missed meanwhile.
 */
export function pgWakeups(url: string, schema: string): WakeSubscription {
  return (wake) => {
    let channel = '';
    let closed = false;
    let client: pg.Client | undefined;
    const drop = (c: pg.Client) => {
      if (client !== c) return;
      client = undefined;
      c.end().catch(() => undefined);
      if (!closed) setTimeout(() => void connect(), RECONNECT_MS).unref();
    };
    const connect = async () => {
      if (closed) return;
      const { default: pgModule } = await import('pg');
      if (closed) return;
      const c = new pgModule.Client({ connectionString: url, connectionTimeoutMillis: 2000, ...(schema ? { options: `-c search_path=${schema}` } : {}) });
      client = c;
      c.on('error', () => drop(c));
      c.on('end', () => drop(c));
      c.on('notification', (n) => {
        if (n.channel === channel) wake();
      });
      try {
        await c.connect();
        channel = (await c.query<{ channel: string }>(`select ${CHANNEL} as channel`)).rows[0]?.channel ?? '';
        await c.query(`LISTEN "${channel}"`);
        if (client === c) wake();
      } catch {
        drop(c);
      }
    };
    // LISTEN only reads: a silently dead connection would never error. A query now and then does.
    const heartbeat = setInterval(() => {
      const c = client;
      c?.query({ text: 'select 1', query_timeout: HEARTBEAT_MS } as pg.QueryConfig).catch(() => drop(c));
    }, HEARTBEAT_MS);
    heartbeat.unref();
    void connect();
    return {
      async stop() {
        closed = true;
        clearInterval(heartbeat);
        const c = client;
        client = undefined;
        await c?.end().catch(() => undefined);
      },
    };
  };
}
