import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { WriteGate } from './group-commit.js';

/**
 * WAL checkpoints on a worker thread with its own connection, so the serving thread only appends
 * to the WAL (SQLite's automatic checkpoint would run inside a request's COMMIT; the figures are
 * in docs/benchmarks.md, "Why the store is shaped this way"). PASSIVE passes never block the
 * writer; once the WAL passes RESTART_PAGES the worker takes the write gate (one Int32 shared with
 * the group commit) to empty it. The group commit never blocks on the gate: it retries on a 1 ms
 * timer, so a hold delays writes by its own length only and never the event loop.
 *
 * The serving connection keeps a backstop: its own automatic checkpoint at BACKSTOP_PAGES while
 * the worker runs, and SQLite's default again if the worker fails or exits, so the WAL stays
 * bounded whatever happens to the thread. A worker that dies holding the gate opens it.
 */
/** The write gate's states (the first Int32 shared with the worker; the second is 1 while the worker waits for it). */
const FREE = 0;
const WRITING = 1;
const HELD = 2;
/** How long the worker waits for the serving thread to finish a batch before leaving the WAL as it is, ms. */
const HOLD_WAIT_MS = 20;
/**
 * The most frames the held pass may have to copy: more, and another pass without the gate comes
 * first (up to UNHELD_PASSES in all), so a hold stays a few ms even after a slow first pass.
 */
const HOLD_MAX_FRAMES = 256;
const UNHELD_PASSES = 3;

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const version = db.prepare('PRAGMA data_version').pluck();
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const state = new Int32Array(workerData.state);
let seen = -1; // the first look always checkpoints: the write that started the worker may precede its connection
// Takes the write gate (FREE -> HELD) if the serving thread lets it go within HOLD_WAIT_MS. While it
// waits it says so (state[1]), and the group commit lets it in between two batches.
function hold() {
  const until = performance.now() + ${HOLD_WAIT_MS};
  Atomics.store(state, 1, 1);
  try {
    for (;;) {
      if (Atomics.compareExchange(state, 0, ${FREE}, ${HELD}) === ${FREE}) return true;
      const left = until - performance.now();
      if (left <= 0) return false;
      Atomics.wait(state, 0, ${WRITING}, Math.min(left, 2));
    }
  } finally {
    Atomics.store(state, 1, 0);
  }
}
// data_version changes when another connection commits: an idle server checkpoints nothing.
const timer = setInterval(() => {
  const now = version.get();
  if (now === seen) return;
  seen = now;
  let result = checkpoint.get();
  for (let pass = 1; pass < ${UNHELD_PASSES} && result.log >= workerData.restartPages && result.log - result.checkpointed > ${HOLD_MAX_FRAMES}; pass++) result = checkpoint.get();
  let restarted = false;
  let heldMs = 0;
  // Copy the few frames committed while the last pass ran, with no writer, so the next write starts the WAL over.
  if (result.log >= workerData.restartPages && result.log - result.checkpointed <= ${HOLD_MAX_FRAMES} && hold()) {
    const from = performance.now();
    try {
      result = checkpoint.get();
      restarted = result.busy === 0 && result.log > 0 && result.checkpointed === result.log;
    } finally {
      Atomics.store(state, 0, ${FREE});
      heldMs = performance.now() - from;
    }
  }
  parentPort.postMessage({ log: result.log, restarted, heldMs });
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});`;

/**
 * How often the worker looks for new commits, ms. Each look that finds some copies them and syncs
 * both files, and the serving thread's WAL appends stall while that runs (the paced creates over
 * 20 ms came in bursts at the worker's ticks): smaller, more frequent copies keep each stall
 * short. Measured on 2026-11-30 (bench:checkout --only paced at 1,860/s, SQLite): p99 19–22 ms at
 * 100 ms, 13–16 ms at 25 ms, 27–37 ms at 500 and 1,000 ms; closed-loop creates unchanged at 25 ms.
 */
const INTERVAL_MS = 25;

/** SQLite's default automatic checkpoint, in pages. */
const DEFAULT_PAGES = 1000;
/**
 * WAL pages from which the worker empties the WAL (about 6 MB): SQLite reuses an emptied WAL from
 * its start instead of growing the file. Small, because a hold lasts about two fsyncs and grows
 * with what the WAL holds, and every write waits for it.
 */
const RESTART_PAGES = 1500;
/** While the worker runs: ten times as far, so only a stalled worker lets the serving thread checkpoint. */
const BACKSTOP_PAGES = 10_000;

export interface CheckpointerOptions {
  /** How often the worker looks for new commits, in ms. */
  intervalMs?: number;
  /** WAL size, in pages, from which the worker holds the write gate for a second pass that lets the WAL start over. */
  restartPages?: number;
}

export interface Checkpointer {
  /** Starts the worker (idempotent): the store calls it once it has done WRITES_BEFORE_WORKER writes (sqlite.ts), so CLI commands never start a thread. */
  start(): void;
  /** Stops the worker and closes its connection, so the serving connection closes last and removes the WAL. */
  stop(): Promise<void>;
  /** Asked by the group commit before each batch: closed only while the worker holds it for a second pass. */
  readonly gate: WriteGate;
  /** Checkpoints the worker ran that found frames to copy, the ones that emptied the WAL (and the longest the gate was held for one, ms), and whether it is running: for tests. */
  readonly stats: { checkpoints: number; restarts: number; longestHoldMs: number; running: boolean };
}

export function walCheckpointer(
  raw: BetterSqlite3.Database,
  file: string,
  opts: CheckpointerOptions = {},
): Checkpointer {
  let worker: Worker | undefined;
  let stopped = false;
  const stats = { checkpoints: 0, restarts: 0, longestHoldMs: 0, running: false };
  const state = new Int32Array(new SharedArrayBuffer(8));
  const gate: WriteGate = {
    // With no worker the state is never HELD; a worker that dies holding it is reset in `ended`.
    enter: () => Atomics.compareExchange(state, 0, FREE, WRITING) === FREE,
    leave() {
      // Only what `enter` set: never the worker's HELD.
      Atomics.compareExchange(state, 0, WRITING, FREE);
      Atomics.notify(state, 0);
    },
    wanted: () => Atomics.load(state, 1) === 1,
  };

  // A worker that failed is not started again (each write would spawn another): the serving
  // connection checkpoints by itself from then on, as SQLite does by default.
  let failed = false;
  const ended = (w: Worker) => (err?: Error) => {
    // Events of a worker that is no longer the current one change nothing.
    if (worker !== w) return;
    stats.running = false;
    worker = undefined;
    // A worker that died holding the gate, or waiting for it, leaves neither behind.
    Atomics.compareExchange(state, 0, HELD, FREE);
    Atomics.store(state, 1, 0);
    if (raw.open) raw.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
    if (!stopped) {
      failed = true;
      process.emitWarning(
        `SQLite checkpoint worker stopped (${err?.message ?? 'exited'}): the server checkpoints ${file} on its own thread from now on`,
      );
    }
  };

  return {
    stats,
    gate,
    start() {
      if (worker !== undefined || stopped || failed) return;
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      const w = new Worker(SOURCE, {
        eval: true,
        workerData: {
          driver,
          file,
          intervalMs: opts.intervalMs ?? INTERVAL_MS,
          restartPages: opts.restartPages ?? RESTART_PAGES,
          state: state.buffer,
        },
      });
      // Never what keeps a process (a CLI command, a test) alive.
      w.unref();
      w.on('message', (m: { log: number; restarted: boolean; heldMs: number }) => {
        if (m.log > 0) stats.checkpoints++;
        if (m.restarted) stats.restarts++;
        stats.longestHoldMs = Math.max(stats.longestHoldMs, m.heldMs);
      });
      w.on('error', ended(w));
      w.on('exit', () => ended(w)());
      worker = w;
      stats.running = true;
      raw.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    },
    async stop() {
      stopped = true;
      const w = worker;
      if (w === undefined) return;
      const exited = once(w, 'exit');
      w.postMessage('close');
      const timer = setTimeout(() => void w.terminate(), 2000);
      await exited.catch(() => undefined);
      clearTimeout(timer);
    },
  };
}
