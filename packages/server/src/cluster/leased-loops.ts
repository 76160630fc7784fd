import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import type { Db } from '../store/store.js';

/** Another instance holds the lease now (or took it over while this one paused past the expiry). */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

interface LeaseColumns {
  lease_owner: string | null;
  lease_expires_at: string | null;
}

/** The tables whose rows carry a lease: any table of the store, a feature's, with the two columns. */
export type LeasedTableName = {
  [T in keyof Database]: Database[T] extends LeaseColumns ? T : never;
}[keyof Database];

/** A table whose rows carry a lease, named by the feature that owns it, and the column naming a row. */
export type LeaseTable = {
  [T in LeasedTableName]: { table: T; key: keyof Database[T] & string };
}[LeasedTableName];

/** Kysely cannot type a table chosen at run time: every leased table seen as one with the lease columns. */
const leased = (trx: Db) => trx as unknown as Kysely<{ leased: LeaseColumns & { key: string } }>;

export interface LeaseHolder {
  owner: string;
  now: () => number;
  leaseMs: number;
}

/**
 * Takes or renews a row's lease inside the caller's transaction: one conditional UPDATE (the same
 * on SQLite and PostgreSQL) that succeeds when the row is free, already this owner's, or its lease
 * ran out. Throws LeaseLost when another instance holds it.
 */
export async function holdLease(trx: Db, t: LeaseTable, id: string, holder: LeaseHolder): Promise<void> {
  const now = new Date(holder.now()).toISOString();
  const until = new Date(holder.now() + holder.leaseMs).toISOString();
  const r = await leased(trx)
    .updateTable(t.table as 'leased')
    .set({ lease_owner: holder.owner, lease_expires_at: until })
    .where(t.key as 'key', '=', id)
    .where((eb) =>
      eb.or([eb('lease_owner', '=', holder.owner), eb('lease_owner', 'is', null), eb('lease_expires_at', '<', now)]),
    )
    .executeTakeFirst();
  if ((r.numUpdatedRows ?? 0n) === 0n) throw new LeaseLost(`another instance holds ${t.table} ${id} now`);
  leasers.add(leaserKey(t, holder.owner));
}

/**
 * Owners that have taken a lease in a table in this process. Stopping an instance that never led
 * anything then costs no write: a shutdown makes no store round trips it does not need (each is
 * a wait when the database is slow, and a drain should end with the last request).
 */
const leasers = new Set<string>();
const leaserKey = (t: LeaseTable, owner: string): string => `${t.table}\u0000${owner}`;

/** Whether this owner may hold a lease in the table: it took one in this process and has not released them all. */
export const mayHoldLeases = (t: LeaseTable, owner: string): boolean => leasers.has(leaserKey(t, owner));

/** Gives back every lease this owner holds in the table (or only the row `id`). */
export async function releaseLeases(trx: Db, t: LeaseTable, owner: string, id?: string): Promise<void> {
  let q = leased(trx)
    .updateTable(t.table as 'leased')
    .set({ lease_owner: null, lease_expires_at: null })
    .where('lease_owner', '=', owner);
  if (id !== undefined) q = q.where(t.key as 'key', '=', id);
  await q.execute();
  if (id === undefined) leasers.delete(leaserKey(t, owner));
}

export interface LeasedLoopsOptions {
  /** What the loops are for, in log lines ("chain watch", "rate source", "hot wallet"). */
  what: string;
  /** The keys that should have a loop now (read again every `reloadMs` and on `wake`). */
  keys: () => Promise<string[]>;
  /** One turn of a key's loop: returns how long to wait before the next. Must not throw. */
  turn: (key: string) => Promise<number>;
  /** How often the list of keys is read again, ms. */
  reloadMs: number;
  log: { warn(msg: string): void };
  /** A key dropped out of the list (its loop ended): let go of what it held. */
  ended?: ((key: string) => void) | undefined;
}

interface Loop {
  timer: NodeJS.Timeout | undefined;
  running: Promise<unknown> | undefined;
}

/**
 * A loop per key (a chain, a rate source), each paced by its own turns: a slow key delays only
 * itself. The list of keys is read again now and then; a key that leaves it has its loop ended.
 * The lease that keeps a key with one instance is taken inside each turn (holdLease); this class
 * only runs the loops. Created stopped: start() begins, stop() ends every loop and waits for the
 * turns under way.
 */
export class LeasedLoops {
  readonly #o: LeasedLoopsOptions;
  readonly #loops = new Map<string, Loop>();
  #reload: NodeJS.Timeout | undefined;
  #started = false;

  constructor(opts: LeasedLoopsOptions) {
    this.#o = opts;
  }

  get started(): boolean {
    return this.#started;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    const again = () => {
      this.#reload = setTimeout(() => void this.#sync().finally(again), this.#o.reloadMs);
      this.#reload.unref();
    };
    void this.#sync().finally(again);
  }

  /** The list may have changed on this instance: look at it now. */
  wake(): void {
    if (this.#started) void this.#sync();
  }

  /** Ends every loop and waits for the turns under way; returns the keys that had a loop. */
  async stop(): Promise<string[]> {
    this.#started = false;
    clearTimeout(this.#reload);
    const loops = [...this.#loops.entries()];
    this.#loops.clear();
    for (const [, l] of loops) clearTimeout(l.timer);
    await Promise.allSettled(loops.map(([, l]) => l.running));
    return loops.map(([key]) => key);
  }

  async #sync(): Promise<void> {
    if (!this.#started) return;
    let keys: string[];
    try {
      keys = await this.#o.keys();
    } catch (err) {
      this.#o.log.warn(`${this.#o.what}: cannot read the list: ${(err as Error).message}`);
      return;
    }
    if (!this.#started) return;
    for (const key of keys) {
      let loop = this.#loops.get(key);
      if (loop === undefined) {
        loop = { timer: undefined, running: undefined };
        this.#loops.set(key, loop);
      }
      if (loop.timer === undefined && loop.running === undefined) this.#schedule(key, loop, 0);
    }
    for (const [key, loop] of this.#loops) {
      if (keys.includes(key)) continue;
      clearTimeout(loop.timer);
      this.#loops.delete(key);
      this.#o.ended?.(key);
    }
  }

  #schedule(key: string, loop: Loop, ms: number): void {
    loop.timer = setTimeout(() => {
      loop.timer = undefined;
      loop.running = this.#o
        .turn(key)
        .catch((err: unknown) => {
          this.#o.log.warn(`${this.#o.what} ${key}: ${(err as Error).message}`);
          return this.#o.reloadMs;
        })
        .then((next) => {
          loop.running = undefined;
          if (this.#started && this.#loops.get(key) === loop) this.#schedule(key, loop, next);
        });
    }, ms);
    loop.timer.unref();
  }
}

/** The wait after `errors` failed turns in a row: the poll interval doubled each time, capped. */
export const backoff = (pollMs: number, errors: number, maxMs: number): number =>
  Math.min(maxMs, pollMs * 2 ** Math.min(errors, 8));
