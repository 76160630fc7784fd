import { PostgresAdapter, sql } from 'kysely';
import type pg from 'pg';
import { runSteps, type Steps } from '../../store/steps.js';
import type { Db, Store } from '../../store/store.js';

/**
 * Wakes what waits on commits (the delivery workers, the open event streams of a merchant) as
 * soon as the commit happens, so each waits for its poll only when a wake-up was missed.
 * PostgreSQL: `pg_notify` in the transaction that wrote, which PostgreSQL delivers at commit to
 * every instance LISTENing on the schema's channel (this one included, and none if it rolls
 * back). SQLite is one process: the bus of the store written to takes the store's one connection
 * (no query), which the write holds until its COMMIT, and wakes its subscribers then, so nothing
 * woken reads before the change is visible (a rolled-back write only costs a look). Writers in
 * another process (the CLI next to a SQLite server) wake nobody here: that is what the polls are
 * for.
 */

/** Subscribes `wake` to wake-ups; the handle ends the subscription. */
export type WakeSubscription = (wake: () => void) => { stop(): Promise<void> };

/**
 * Notification payloads on the channel: '' deliveries were queued (what every version sends),
 * `e:<merchantId>` events of that merchant were appended.
 */
export const EVENTS_PREFIX = 'e:';

/** A transaction's dialect, told by its adapter (no query compiled in the commit path). */
const isPostgres = (trx: Db): boolean => trx.getExecutor().adapter instanceof PostgresAdapter;

/**
 * SQLite: the buses of each store. A transaction reaches its store's only through the dialect
 * adapter, which a Kysely instance shares with every connection and transaction made from it.
 */
const localBuses = new WeakMap<object, Set<WakeBus>>();

/**
 * The channel of the schema in use, computed by PostgreSQL on both sides so they cannot differ:
 * channel names are identifiers (at most 63 bytes) and a schema name may be that long alone.
 */
export const CHANNEL = "'hpwh_' || md5(current_schema())";

/** Called in the transaction that queued deliveries. */
export async function announceQueued(trx: Db): Promise<void> {
  await runSteps(trx, announce(trx, true, undefined));
}

/**
 * Steps of the transaction that appended events of `merchantId` (and queued deliveries for them
 * if `deliveries`): one statement for both on PostgreSQL, where the commit path pays a round trip;
 * none on SQLite.
 */
export function announceEvents(db: Db, merchantId: string, deliveries: boolean): Steps<void> {
  return announce(db, deliveries, merchantId);
}

function* announce(db: Db, deliveries: boolean, merchantId: string | undefined): Steps<void> {
  if (isPostgres(db)) {
    // One statement for all of them; PostgreSQL folds equal notifications of one transaction
    // (many events of a merchant, one wake).
    const payloads = [...(deliveries ? [''] : []), ...(merchantId === undefined ? [] : [EVENTS_PREFIX + merchantId])];
    if (payloads.length > 0)
      yield sql`select ${sql.join(payloads.map((p) => sql`pg_notify(${sql.raw(CHANNEL)}, ${p})`))}`;
    return;
  }
  const buses = localBuses.get(db.getExecutor().adapter);
  if (buses === undefined) return;
  for (const bus of buses) bus.announceLocal(deliveries, merchantId);
}

/** Where a bus hears of commits: PostgreSQL's LISTEN connection while anyone is subscribed. */
type Listen = (onPayload: (payload: string) => void, onConnect: () => void) => { stop(): Promise<void> };

/**
 * The wake-ups of one store, owned by the services over it: the delivery workers subscribe to
 * queued deliveries, each open event stream to its own merchant's events (a commit of merchant A
 * wakes none of merchant B's streams).
 */
export class WakeBus {
  readonly #deliveries = new Set<() => void>();
  readonly #events = new Map<string, Set<() => void>>();
  readonly #listen: Listen | undefined;
  readonly #adapter: object | undefined;
  readonly #db: Db;
  #listening: { stop(): Promise<void> } | undefined;
  /** SQLite: what writes announced since the last wake, woken once when the store's connection is free. */
  #pendingDeliveries = false;
  readonly #pendingMerchants = new Set<string>();
  #scheduled = false;
  #closed = false;

  /**
   * `postgres`: where to LISTEN. Without it a PostgreSQL store wakes nobody (the polls only); a
   * SQLite store needs nothing.
   */
  constructor(store: Store, postgres?: { url: string; schema: string }) {
    this.#db = store.db;
    if (store.dialect === 'postgres') {
      this.#listen = postgres === undefined ? undefined : pgListen(postgres.url, postgres.schema);
      return;
    }
    this.#adapter = store.db.getExecutor().adapter;
    const buses = localBuses.get(this.#adapter) ?? new Set<WakeBus>();
    localBuses.set(this.#adapter, buses);
    buses.add(this);
  }

  /** Wakes the delivery workers when deliveries are queued. */
  readonly deliveries: WakeSubscription = (wake) => this.#subscribe(this.#deliveries, wake);

  /** Wakes `wake` when events of `merchantId` may have committed. */
  events(merchantId: string, wake: () => void): { stop(): Promise<void> } {
    if (this.#closed) return { stop: async () => undefined };
    const set = this.#events.get(merchantId) ?? new Set<() => void>();
    this.#events.set(merchantId, set);
    return this.#subscribe(set, wake, () => {
      if (this.#events.get(merchantId) === set) this.#events.delete(merchantId);
    });
  }

  /** Ends the LISTEN connection and stops hearing this store's commits. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#deliveries.clear();
    this.#events.clear();
    if (this.#adapter !== undefined) localBuses.get(this.#adapter)?.delete(this);
    const listening = this.#listening;
    this.#listening = undefined;
    await listening?.stop();
  }

  /** SQLite: a transaction of this store announced; its subscribers are woken after it ends (module comment). */
  announceLocal(deliveries: boolean, merchantId: string | undefined): void {
    let wanted = false;
    if (deliveries && this.#deliveries.size > 0) {
      this.#pendingDeliveries = true;
      wanted = true;
    }
    if (merchantId !== undefined && this.#events.has(merchantId)) {
      this.#pendingMerchants.add(merchantId);
      wanted = true;
    }
    if (wanted && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#wakePending());
    }
  }

  #wakePending(): void {
    let deliveries = false;
    let merchants: string[] = [];
    // Held by the announcing write until its COMMIT. What was announced by the time it is free
    // comes from writes that have ended: later ones wait for this bus to let the connection go.
    this.#db
      .connection()
      .execute(async () => {
        this.#scheduled = false;
        deliveries = this.#pendingDeliveries;
        this.#pendingDeliveries = false;
        merchants = [...this.#pendingMerchants];
        this.#pendingMerchants.clear();
      })
      .then(
        () => {
          if (deliveries) for (const wake of this.#deliveries) wake();
          for (const m of merchants) this.#wakeEvents(m);
        },
        // The store is closed: the subscribers are going away with it.
        () => {
          this.#scheduled = false;
        },
      );
  }

  #wakeEvents(merchantId: string): void {
    const set = this.#events.get(merchantId);
    if (set !== undefined) for (const wake of [...set]) wake();
  }

  #onPayload(payload: string): void {
    if (payload.startsWith(EVENTS_PREFIX)) this.#wakeEvents(payload.slice(EVENTS_PREFIX.length));
    else for (const wake of this.#deliveries) wake();
  }

  /** Notifications may have been missed while the connection was down: everyone looks once. */
  #onConnect(): void {
    for (const wake of this.#deliveries) wake();
    for (const set of this.#events.values()) for (const wake of [...set]) wake();
  }

  /** `emptied`: called when `wake` was the last of `set`. */
  #subscribe(set: Set<() => void>, wake: () => void, emptied?: () => void): { stop(): Promise<void> } {
    // A stream opened while the server shuts down must not open the connection again.
    if (this.#closed) return { stop: async () => undefined };
    set.add(wake);
    if (this.#listen !== undefined && this.#listening === undefined) {
      this.#listening = this.#listen(
        (payload) => this.#onPayload(payload),
        () => this.#onConnect(),
      );
    }
    let stopped = false;
    return {
      stop: async () => {
        if (stopped || !set.delete(wake)) return;
        stopped = true;
        if (set.size === 0) emptied?.();
        // Nobody left to wake (a merchant's set leaves #events when emptied): the connection is not
        // held for nothing (it is opened again on demand).
        if (this.#deliveries.size > 0 || this.#events.size > 0) return;
        const listening = this.#listening;
        this.#listening = undefined;
        await listening?.stop();
      },
    };
  }
}

const RECONNECT_MS = 1000;
const HEARTBEAT_MS = 5000;

/**
 * PostgreSQL: one dedicated connection LISTENs on the schema's channel (outside the pool). While
 * it is down the subscribers still poll; on every (re)connect they are woken once, since
 * notifications may have been missed meanwhile.
 */
function pgListen(url: string, schema: string): Listen {
  return (onPayload, onConnect) => {
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
      const c = new pgModule.Client({
        connectionString: url,
        connectionTimeoutMillis: 2000,
        ...(schema ? { options: `-c search_path=${schema}` } : {}),
      });
      client = c;
      c.on('error', () => drop(c));
      c.on('end', () => drop(c));
      c.on('notification', (n) => {
        if (n.channel === channel) onPayload(n.payload ?? '');
      });
      try {
        await c.connect();
        channel = (await c.query<{ channel: string }>(`select ${CHANNEL} as channel`)).rows[0]?.channel ?? '';
        await c.query(`LISTEN "${channel}"`);
        if (client === c) onConnect();
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
