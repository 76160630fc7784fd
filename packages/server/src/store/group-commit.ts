import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import type { SyncConnection, SyncTrx } from './steps.js';

type Work = (trx: Kysely<Database>) => Promise<unknown>;
type WorkNow = (trx: SyncTrx) => unknown;

/**
 * Lets another party (the WAL checkpointer, store/checkpointer.ts) have a moment with no write
 * transaction open. `enter` is asked before each batch and never blocks: false means "not now",
 * and the batch waits on a timer instead of holding up the event loop.
 */
export interface WriteGate {
  enter(): boolean;
  leave(): void;
  /** True while the other party waits for the gate: the next batch then starts a turn later, so a backlog cannot keep it out. */
  wanted?(): boolean;
}

/** How long a batch the gate turned away waits before asking again, ms. */
const GATE_RETRY_MS = 1;

interface Pending {
  /** Through Kysely, awaited; or `now`: synchronously on the connection (steps.ts). */
  fn: Work | undefined;
  now: WorkNow | undefined;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

export interface GroupCommitOptions {
  /** A write queued longer than this is reported as a process warning, once (default 10 s). */
  stallWarningMs?: number;
}

// These run around every write (a savepoint and its release per transaction), synchronously on
// the connection: a batch of synchronous writes then runs from BEGIN to COMMIT without a tick.
const BEGIN = 'BEGIN IMMEDIATE';
const SAVEPOINT = 'SAVEPOINT hostpay_write';
const RELEASE = 'RELEASE hostpay_write';
const ROLLBACK_TO = 'ROLLBACK TO hostpay_write';
const COMMIT = 'COMMIT';
const ROLLBACK = 'ROLLBACK';

/** Enough to share one commit among a full set of concurrent requests, small enough to keep each one's wait short. */
const MAX_BATCH = 64;

/**
 * Group commit for the embedded SQLite store (why: docs/benchmarks.md, "Why the store is shaped
 * this way"). Write transactions that arrive in the same turn of the event loop share one
 * `BEGIN IMMEDIATE … COMMIT`: each runs in its own SAVEPOINT (consecutive synchronous ones share
 * one, or none when they open the transaction, and run again when one of them fails: runGroup),
 * so one that fails rolls back alone and its
 * caller sees its own error, and each
 * caller's promise settles only after the shared COMMIT, so nobody is told "done" before the
 * change is in the database. If the COMMIT itself fails, every caller of the batch gets the
 * error and none of their changes exist. Execution stays serial (one connection), so each
 * transaction sees exactly what it would see alone after those before it.
 */
export function groupCommit(
  db: Kysely<Database>,
  connection: SyncConnection,
  gate?: WriteGate,
  { stallWarningMs = 10_000 }: GroupCommitOptions = {},
) {
  let queue: Pending[] = [];
  let scheduled = false;
  /** The batch holding the connection now, if one does (its writes are settled at its end). */
  let inFlight: Pending[] | undefined;
  let watch: NodeJS.Timeout | undefined;
  const inTransaction = () => connection.inTransaction();
  const run = (text: string) => void connection.exec(text, []);
  const syncTrx: SyncTrx = { db, conn: connection };

  /** After a failed write: its savepoint rolled back, or, if the failure ended the transaction, what the batch did is lost. */
  function undo(err: unknown, lost: (err: unknown) => void): void {
    if (inTransaction()) {
      run(ROLLBACK_TO);
      run(RELEASE);
    } else lost(err);
  }

  /**
   * Runs consecutive synchronous writes under ONE savepoint, not one each: SQLite copies every
   * page a savepoint changes into its journal, and consecutive creates change the same pages (the
   * last leaf of each table and index), so a savepoint per write copied them again for each one:
   * its inserts took 1.7× as long (issue 44). When one fails, the savepoint is rolled back, that
   * one gets its error, and the others run again, their steps made anew (nothing of theirs was
   * seen: no one is answered before the COMMIT). If the failure ended the whole transaction, what
   * the batch had done before is lost too (`lost`), and the group runs again in a new one.
   *
   * A group that opens its transaction (`first`: nothing of the batch is kept before it, the usual
   * case of a turn's creates) needs no savepoint at all: on a failure the transaction itself is
   * rolled back, which loses nothing else. Even the one savepoint made each UPDATE of a counter
   * row about twice as slow (issue 44: 25 µs of a create's SQL on a slow machine).
   */
  function runGroup(group: Pending[], lost: (err: unknown) => void, first: boolean): { p: Pending; value: unknown }[] {
    let pending = group;
    for (;;) {
      if (!inTransaction()) run(BEGIN);
      if (!first) run(SAVEPOINT);
      const kept: { p: Pending; value: unknown }[] = [];
      let failed = -1;
      let error: unknown;
      for (const [i, p] of pending.entries()) {
        try {
          kept.push({ p, value: p.now!(syncTrx) });
        } catch (err) {
          failed = i;
          error = err;
          break;
        }
      }
      if (failed < 0) {
        // A write that caught a failure which ended the transaction (a full disk) and returned:
        // RELEASE would refuse; without a savepoint, say so here, or the batch would be answered
        // "done" for what SQLite rolled back (the batch's catch fails everyone of it).
        if (!first) run(RELEASE);
        else if (!inTransaction()) throw new Error('the write transaction ended: this batch is not kept');
        return kept;
      }
      if (!first) undo(error, lost);
      else if (inTransaction()) run(ROLLBACK);
      pending[failed]!.reject(error);
      pending = pending.filter((_, i) => i !== failed);
    }
  }

  async function runBatch(conn: Kysely<Database>, batch: Pending[]): Promise<void> {
    let done: { p: Pending; value: unknown }[] = [];
    const lost = (err: unknown) => {
      for (const d of done) d.p.reject(err);
      done = [];
    };
    let next = 0;
    try {
      run(BEGIN);
      while (next < batch.length) {
        const p = batch[next]!;
        if (p.now !== undefined) {
          let end = next + 1;
          while (end < batch.length && batch[end]!.now !== undefined) end++;
          // Run first, then push: a failure that ends the transaction replaces `done` (lost).
          const kept = runGroup(batch.slice(next, end), lost, done.length === 0);
          done.push(...kept);
          next = end;
          continue;
        }
        // A store error can end the whole transaction (SQLite rolls back on a full disk or I/O error): start a new one.
        if (!inTransaction()) run(BEGIN);
        run(SAVEPOINT);
        try {
          const value = await p.fn!(conn);
          run(RELEASE);
          done.push({ p, value });
        } catch (err) {
          undo(err, lost);
          p.reject(err);
        }
        // Only now: until this one is settled, the catch below must count it among those waiting.
        next++;
      }
      if (inTransaction()) run(COMMIT);
    } catch (err) {
      // BEGIN, a savepoint step or COMMIT failed: nothing of this batch is kept, and everyone still waiting hears why
      // (also if the ROLLBACK fails too: the next BEGIN then reports the state of the connection).
      if (inTransaction()) {
        try {
          run(ROLLBACK);
        } catch {}
      }
      lost(err);
      for (const p of batch.slice(next)) p.reject(err);
      return;
    }
    for (const d of done) d.p.resolve(d.value);
  }

  async function flush(): Promise<void> {
    await db.connection().execute(async (conn) => {
      for (;;) {
        // Cleared in the same step that sees the queue empty, so a later arrival schedules a new flush.
        if (queue.length === 0) {
          scheduled = false;
          return;
        }
        // Turned away: `scheduled` stays set, so arrivals meanwhile join the queue the retry takes.
        if (gate !== undefined && !gate.enter()) {
          setTimeout(start, GATE_RETRY_MS);
          return;
        }
        const batch = queue.slice(0, MAX_BATCH);
        queue = queue.slice(MAX_BATCH);
        inFlight = batch;
        try {
          await runBatch(conn, batch);
        } finally {
          inFlight = undefined;
          gate?.leave();
        }
        if (queue.length > 0 && gate?.wanted?.() === true) {
          setImmediate(start);
          return;
        }
      }
    });
  }

  function start(): void {
    flush().catch((err: unknown) => {
      // Only acquiring the connection can fail here (the store is closed): fail what waits.
      scheduled = false;
      for (const p of queue.splice(0)) p.reject(err);
    });
  }

  /**
   * Says so when a write stays unsettled past stallWarningMs (queued, or in a batch that does not
   * end), with what the queue waits on: no write
   * should ever wait that long, and a write that never settles would leave its request unanswered
   * with nothing else in the log.
   */
  function watchStalls(): void {
    if (watch !== undefined) return;
    // The oldest unsettled write (the running batch's first, else the queue's), and since when
    // the watch has seen it there: nothing is timed per write.
    let seen: { oldest: Pending; since: number; reported: boolean } | undefined;
    watch = setInterval(
      () => {
        const oldest = inFlight?.[0] ?? queue[0];
        if (oldest === undefined) {
          clearInterval(watch);
          watch = undefined;
          return;
        }
        if (seen?.oldest !== oldest) seen = { oldest, since: Date.now(), reported: false };
        const waited = Date.now() - seen.since;
        if (seen.reported || waited < stallWarningMs) return;
        seen.reported = true;
        process.emitWarning(
          `SQLite group commit: a write has waited at least ${(waited / 1000).toFixed(1)} s (queued: ${queue.length}; flush scheduled: ${scheduled}; a batch running: ${inFlight !== undefined}; checkpoint worker waiting for the gate: ${gate?.wanted?.() === true})`,
          'HostpayStoreStall',
        );
      },
      Math.max(1, Math.floor(stallWarningMs / 4)),
    );
    watch.unref();
  }

  function enqueue<T>(fn: Work | undefined, now: WorkNow | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ fn, now, resolve: resolve as (value: unknown) => void, reject });
      watchStalls();
      if (!scheduled) {
        scheduled = true;
        // After the poll phase: the requests read in this turn of the loop join one batch.
        setImmediate(start);
      }
    });
  }

  return {
    /** A write transaction through Kysely: its statements awaited one by one. */
    writeTransaction: <T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> => enqueue<T>(fn as Work, undefined),
    /** A write transaction run synchronously on the connection (steps.ts), settled after the shared COMMIT. */
    writeNow: <T>(fn: (trx: SyncTrx) => T): Promise<T> => enqueue<T>(undefined, fn),
  };
}
