import type pg from 'pg';

/**
 * The wait for a pooled PostgreSQL connection, told apart from a database that does not answer.
 *
 * pg-pool bounds both with one timer (`connectionTimeoutMillis`): a request that waited that long
 * for a connection other requests were using got the same "timeout exceeded when trying to
 * connect" as one whose database was down, and answered 503 "the store is not reachable" — under
 * load alone, with PostgreSQL up, /readyz included. Here the pool's connections are handed out
 * through a gate of `max` permits with a FIFO queue in front:
 *
 * - the queue is bounded in length (`queueLimit`) and in time (`queueTimeoutMs`); a request turned
 *   away by either gets `PoolBusyError` (503 `STORE_BUSY` with `Retry-After`);
 * - pg-pool itself then never queues (at most `max` connections are asked for), so its timer only
 *   bounds opening a connection: a timeout there is the database not answering (503 `UNAVAILABLE`);
 * - a waiter is also failed as `UNAVAILABLE` once the database has answered nothing for
 *   `silenceMs` while queries were outstanding and does not answer a probe on a connection of
 *   its own either (a partition: the pooled connections hang until their read timeout, and the
 *   waiters behind them must not wait longer than that; queries merely waiting on a lock pass).
 */
export class PoolBusyError extends Error {
  readonly code = 'HOSTPAY_POOL_BUSY';
  constructor(readonly reason: 'queue_full' | 'queue_timeout') {
    super(
      reason === 'queue_full'
        ? 'every database connection is in use and the queue for one is full'
        : 'no database connection became free in time',
    );
  }
}

/** The database answered nothing for a while although queries were waiting on it. */
export class StoreSilentError extends Error {
  readonly code = 'HOSTPAY_STORE_SILENT';
  constructor(ms: number) {
    super(`the database has not answered for ${ms} ms`);
  }
}

export interface PoolGateOptions {
  max: number;
  queueLimit: number;
  queueTimeoutMs: number;
  silenceMs: number;
  /**
   * Asks the database directly, on a connection of its own (bounded by the connect timeout):
   * run when the pooled connections have been silent for `silenceMs`, since a query waiting on a
   * lock is as silent as a partition. Resolves when the database answers.
   */
  probe: () => Promise<void>;
}

interface Waiter {
  resolve(): void;
  reject(err: Error): void;
  since: number;
  timer: NodeJS.Timeout;
}

export class PoolGate {
  #inUse = 0;
  readonly #queue: Waiter[] = [];
  /** When a query last came back (answered or refused by the database itself), ms. */
  #lastAnswer = Date.now();
  /** Queries sent and not back yet, and since when there has been one. */
  #outstanding = 0;
  #busySince = 0;

  #probing: Promise<boolean> | undefined;

  constructor(readonly opts: PoolGateOptions) {}

  /** Whether the database answers a connection of its own; one probe at a time is shared. */
  answers(): Promise<boolean> {
    this.#probing ??= this.opts
      .probe()
      .then(
        () => {
          this.#lastAnswer = Date.now();
          return true;
        },
        () => false,
      )
      .finally(() => {
        this.#probing = undefined;
      });
    return this.#probing;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  get inUse(): number {
    return this.#inUse;
  }

  /** Whether the database answered something within the last `ms`, or had nothing to answer. */
  answeredWithin(ms: number): boolean {
    return this.#outstanding === 0 || Date.now() - Math.max(this.#lastAnswer, this.#busySince) <= ms;
  }

  /** A permit for one connection; `release` gives it back exactly once. */
  async acquire(queueTimeoutMs = this.opts.queueTimeoutMs): Promise<() => void> {
    if (this.#inUse < this.opts.max && this.#queue.length === 0) {
      this.#inUse++;
      return this.#releaser();
    }
    if (this.#queue.length >= this.opts.queueLimit) throw new PoolBusyError('queue_full');
    await new Promise<void>((resolve, reject) => {
      const since = Date.now();
      const check = (): void => {
        const i = this.#queue.indexOf(waiter);
        if (i === -1) return;
        const waited = Date.now() - since;
        if (!this.answeredWithin(this.opts.silenceMs)) {
          // Silent pool: a partition, or queries waiting on locks. Ask the database itself.
          void this.answers().then((alive) => {
            const j = this.#queue.indexOf(waiter);
            if (j === -1) return;
            if (alive) {
              check();
              return;
            }
            this.#queue.splice(j, 1);
            reject(new StoreSilentError(Date.now() - this.#lastAnswer));
          });
        } else if (waited >= queueTimeoutMs) {
          this.#queue.splice(i, 1);
          reject(new PoolBusyError('queue_timeout'));
        } else waiter.timer = setTimeout(check, Math.min(this.opts.silenceMs, queueTimeoutMs - waited));
      };
      const waiter: Waiter = {
        resolve,
        reject,
        since,
        timer: setTimeout(check, Math.min(this.opts.silenceMs, queueTimeoutMs)),
      };
      this.#queue.push(waiter);
    });
    return this.#releaser();
  }

  #releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.#queue.shift();
      if (next === undefined) {
        this.#inUse--;
        return;
      }
      // The permit passes straight to the next waiter.
      clearTimeout(next.timer);
      next.resolve();
    };
  }

  /** Counts a query's round trip (`result`: what a pg client's query returned). */
  watch<T>(result: T): T {
    if (!(result instanceof Promise)) return result;
    if (this.#outstanding++ === 0) this.#busySince = Date.now();
    const back = (): void => {
      this.#outstanding--;
      this.#lastAnswer = Date.now();
    };
    result.then(back, (err: unknown) => {
      this.#outstanding--;
      // A reply of the database (an SQL error) is an answer; a broken or timed-out connection is not.
      if (typeof (err as { code?: unknown })?.code === 'string' && /^[0-9A-Z]{5}$/.test((err as { code: string }).code))
        this.#lastAnswer = Date.now();
    });
    return result;
  }
}

/**
 * The pool as Kysely sees it: `connect` waits at the gate, then takes a pg client (which the gate
 * guarantees is free or can be opened); `release` gives both back.
 */
export function gatedPool(pool: pg.Pool, gate: PoolGate): { connect(): Promise<pg.PoolClient>; end(): Promise<void> } {
  return {
    async connect() {
      const release = await gate.acquire();
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        release();
        throw err;
      }
      const original = client.release.bind(client);
      client.release = ((destroy?: boolean | Error) => {
        client.release = original;
        original(destroy);
        release();
      }) as typeof client.release;
      return client;
    },
    end: () => pool.end(),
  };
}
