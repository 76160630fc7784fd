import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints on a worker thread with its own connection. SQLite's automatic checkpoint runs
 * inside the COMMIT that crosses 1,000 WAL pages, on the thread that serves requests: it copies
 * those pages into the database file and fsyncs both files. Under the checkout-create benchmark
 * that was one COMMIT in ten taking 5–25 ms (p50 1 ms), three quarters of all COMMIT time, and
 * every request of the batch waited for it. A PASSIVE checkpoint from another connection never
 * blocks the writer, so the serving thread only appends to the WAL.
 *
 * The serving connection keeps a backstop: its own automatic checkpoint at BACKSTOP_PAGES while
 * the worker runs, and SQLite's default again if the worker fails or exits, so the WAL stays
 * bounded whatever happens to the thread.
 */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const version = db.prepare('PRAGMA data_version').pluck();
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen = -1; // the first look always checkpoints: the write that started the worker may precede its connection
// data_version changes when another connection commits: an idle server checkpoints nothing.
const timer = setInterval(() => {
  const now = version.get();
  if (now === seen) return;
  seen = now;
  const result = checkpoint.get();
  parentPort.postMessage(result);
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});`;

/** SQLite's default automatic checkpoint, in pages. */
const DEFAULT_PAGES = 1000;
/** While the worker runs: ten times as far, so only a stalled worker lets the serving thread checkpoint. */
const BACKSTOP_PAGES = 10_000;

export interface CheckpointerOptions {
  /** How often the worker looks for new commits, in ms. */
  intervalMs?: number;
}

export interface Checkpointer {
  /** Starts the worker (idempotent): the store calls it once it has done WRITES_BEFORE_WORKER writes (sqlite.ts), so CLI commands never start a thread. */
  start(): void;
  /** Stops the worker and closes its connection, so the serving connection closes last and removes the WAL. */
  stop(): Promise<void>;
  /** Checkpoints the worker ran that found frames to copy, and whether it is running: for tests. */
  readonly stats: { checkpoints: number; running: boolean };
}

export function walCheckpointer(raw: BetterSqlite3.Database, file: string, opts: CheckpointerOptions = {}): Checkpointer {
  let worker: Worker | undefined;
  let stopped = false;
  const stats = { checkpoints: 0, running: false };

  // A worker that failed is not started again (each write would spawn another): the serving
  // connection checkpoints by itself from then on, as SQLite does by default.
  let failed = false;
  const ended = (w: Worker) => (err?: Error) => {
    // Events of a worker that is no longer the current one change nothing.
    if (worker !== w) return;
    stats.running = false;
    worker = undefined;
    if (raw.open) raw.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
    if (!stopped) {
      failed = true;
      process.emitWarning(`SQLite checkpoint worker stopped (${err?.message ?? 'exited'}): the server checkpoints ${file} on its own thread from now on`);
    }
  };

  return {
    stats,
    start() {
      if (worker !== undefined || stopped || failed) return;
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      const w = new Worker(SOURCE, { eval: true, workerData: { driver, file, intervalMs: opts.intervalMs ?? 100 } });
      // Never what keeps a process (a CLI command, a test) alive.
      w.unref();
      w.on('message', (m: { log: number }) => {
        if (m.log > 0) stats.checkpoints++;
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
