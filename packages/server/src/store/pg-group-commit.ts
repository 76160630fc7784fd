import { CompiledQuery } from 'kysely';
import type { Db } from './store.js';
import { retrySerializationFailures } from './retry.js';
import { isStoreBusy, isStoreUnavailable } from './unavailable.js';

/** The store down or busy (503 for everyone of the batch): nothing to replay one by one. */
const everyones = (err: unknown): boolean => isStoreUnavailable(err) || isStoreBusy(err);

/**
 * Writes `items` in ONE statement, inside BEGIN … COMMIT: whatever rows it locks stay locked only
 * from where the statement takes them until the COMMIT that follows it.
 */
export type BatchStatement<I> = (db: Db, items: I[]) => Promise<void>;

export interface PgGroupCommitOptions<I = unknown> {
  /** Items per statement at most. */
  maxBatch?: number;
  /** Batches in flight at once (each on a pooled connection); arrivals meanwhile form the next. */
  concurrency?: number;
  /**
   * The batch's statement as one SQL text with its values written in, when it can be: the batch
   * is then sent as `begin; <text>` in one simple-protocol message, then COMMIT — two round trips
   * per batch instead of three (BEGIN, the statement, COMMIT), without Kysely's transaction
   * machinery. The same transaction as `statement`'s; the one-by-one replay still uses `statement`.
   */
  inline?: (items: I[]) => string;
  /**
   * The same statement prepared once per connection (SQL PREPARE), sent as `begin; <execute>`
   * with the values written in: PostgreSQL then plans it once per connection instead of once per
   * batch (planning the inlined text took ~1 ms a batch, issue 44). `prepare` names it; a
   * connection without it (new, or replaced) answers 26000 and is given it; where it still cannot
   * be found (a pooler in front that moves sessions between connections), `inline` is used from
   * then on.
   */
  prepared?: { prepare: string; execute: (items: I[]) => string };
}

/** SQLSTATE 26000 invalid_sql_statement_name: EXECUTE of a statement this connection has not prepared. */
const notPrepared = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === '26000';

interface Pending<I> {
  item: I;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const BEGIN = CompiledQuery.raw('begin');
const SAVEPOINT = CompiledQuery.raw('savepoint hostpay_write');
const RELEASE = CompiledQuery.raw('release savepoint hostpay_write');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint hostpay_write');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * Group commit for PostgreSQL, with the semantics of the SQLite one (group-commit.ts): the writes
 * that arrive in one turn of the event loop share one transaction, nobody's promise settles before
 * that transaction's COMMIT (so nobody is answered "done" for a change that is not in the
 * database), and a write that fails fails alone.
 *
 * What differs is the cost that matters: on PostgreSQL every statement is a round trip, and a row
 * lock (a counter every write of a merchant takes) is held from its statement to the COMMIT,
 * through every round trip after it. So the batch is written by `statement` as one multi-row
 * statement, which is the whole transaction: one round trip, one WAL flush, hot rows taken once per
 * batch and held for that statement only. If it fails for any reason other than the store being
 * unavailable (a constraint one item breaks, a deadlock), nothing of it was written, and the batch
 * is written again item by item in one transaction, each in its own SAVEPOINT: the failing item
 * rolls back to its savepoint and hears its own error, the others commit together. A batch that
 * loses a deadlock or serialization check is run again whole (retry.ts, as writeTransaction
 * does). If the store is unavailable or busy, every item of the batch hears that (503) and none
 * was written.
 */
export function pgGroupCommit<I>(db: Db, statement: BatchStatement<I>, opts: PgGroupCommitOptions<I> = {}) {
  const maxBatch = opts.maxBatch ?? 64;
  const concurrency = opts.concurrency ?? 2;
  const inline = opts.inline;
  let queue: Pending<I>[] = [];
  let scheduled = false;
  let inFlight = 0;

  async function oneByOne(batch: Pending<I>[]): Promise<void> {
    await db.connection().execute(async (conn) => {
      const done: Pending<I>[] = [];
      let next = 0;
      try {
        await conn.executeQuery(BEGIN);
        for (; next < batch.length; next++) {
          const p = batch[next]!;
          await conn.executeQuery(SAVEPOINT);
          try {
            await statement(conn, [p.item]);
            await conn.executeQuery(RELEASE);
            done.push(p);
          } catch (err) {
            // The store itself failing is everyone's error (below), not this item's.
            if (everyones(err)) throw err;
            await conn.executeQuery(ROLLBACK_TO);
            await conn.executeQuery(RELEASE);
            p.reject(err);
          }
        }
        await conn.executeQuery(COMMIT);
      } catch (err) {
        await conn.executeQuery(ROLLBACK).catch(() => undefined);
        for (const p of done) p.reject(err);
        for (const p of batch.slice(next)) p.reject(err);
        return;
      }
      for (const p of done) p.resolve();
    });
  }

  /** Set once a prepared statement could not be found right after being prepared (a pooler between). */
  let preparedUnusable = false;

  /**
   * `begin; <text>` then COMMIT on one connection; ROLLBACK if either fails (as Kysely's
   * transaction does). The prepared form when there is one: an EXECUTE the connection does not
   * know fails before writing anything, so preparing and sending it again writes the batch once.
   */
  async function inlined(items: I[], text: (items: I[]) => string): Promise<void> {
    await db.connection().execute(async (conn) => {
      const send = async (sql: string): Promise<void> => {
        try {
          await conn.executeQuery(CompiledQuery.raw(`begin;${sql}`));
          await conn.executeQuery(COMMIT);
        } catch (err) {
          await conn.executeQuery(ROLLBACK).catch(() => undefined);
          throw err;
        }
      };
      const prepared = opts.prepared;
      if (prepared === undefined || preparedUnusable) return send(text(items));
      try {
        return await send(prepared.execute(items));
      } catch (err) {
        if (!notPrepared(err)) throw err;
      }
      // A PREPARE that fails (a timeout, say) costs this batch the planned-each-time text only.
      const made = await conn.executeQuery(CompiledQuery.raw(prepared.prepare)).then(
        () => true,
        () => false,
      );
      if (!made) return send(text(items));
      try {
        return await send(prepared.execute(items));
      } catch (err) {
        if (!notPrepared(err)) throw err;
        preparedUnusable = true;
        return send(text(items));
      }
    });
  }

  async function run(batch: Pending<I>[]): Promise<void> {
    try {
      const items = batch.map((p) => p.item);
      // A batch that lost a deadlock or serialization check was rolled back whole: run it again (retry.ts).
      await retrySerializationFailures(() =>
        // A transaction, not the statement's autocommit: if this process dies while the statement
        // waits on a lock, PostgreSQL finishes it after the lock frees but never sees a COMMIT, so
        // nothing of a batch nobody was answered for is kept (a retried Idempotency-Key then runs
        // the create once, not twice).
        inline !== undefined ? inlined(items, inline) : db.transaction().execute((trx) => statement(trx, items)),
      );
    } catch (err) {
      if (batch.length === 1 || everyones(err)) {
        for (const p of batch) p.reject(err);
        return;
      }
      // Acquiring the connection can fail too: then everyone hears why.
      await oneByOne(batch).catch((e: unknown) => {
        for (const p of batch) p.reject(e);
      });
      return;
    }
    for (const p of batch) p.resolve();
  }

  function start(): void {
    scheduled = false;
    while (queue.length > 0 && inFlight < concurrency) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(maxBatch);
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        schedule();
      });
    }
  }

  function schedule(): void {
    if (scheduled || queue.length === 0 || inFlight >= concurrency) return;
    scheduled = true;
    // After the poll phase: the requests read in this turn of the loop join one batch.
    setImmediate(start);
  }

  return function write(item: I): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
  };
}
