import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * Who this process is, for the leases it takes in the shared store (webhook endpoints,
 * Idempotency-Key claims). `id` names the instance and survives a restart: HOSTPAY_INSTANCE_ID,
 * else `<dataDir>/instance-id`, written once with a random id. `boot` is new on every start. A
 * lease's owner is `<id>/<boot>`: a lease held by the same `id` under another `boot` belongs to
 * an earlier run of this instance, which is gone (two live processes never share an id), so it is
 * taken back at once instead of waiting for it to expire.
 */
export interface InstanceIdentity {
  id: string;
  boot: string;
  /** `<id>/<boot>`: what leases record as their owner. */
  owner: string;
}

export const INSTANCE_ID_FILE = 'instance-id';
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** Ids held by an instance of this process (tests run several instances in one process). */
const inUse = new Set<string>();

/**
 * `serving`: this process is a long-running server (`hostpay serve`): it takes the data dir's lock
 * for as long as it runs, and the saved id with it. Short-lived commands and in-process instances
 * use the saved id unless a running server holds the lock.
 */
export function instanceIdentity(configured: string, dataDir: string, serving = false): InstanceIdentity {
  // Two live processes must never share an id, or each would take the other's leases for an
  // earlier run's and both would send. A data dir whose id another live process holds (two
  // `hostpay serve` started from one folder, or two instances in one process) gets an id of this
  // run alone: its leases then wait to expire, as they did before ids survived restarts. The
  // saved id is read (or first written) by a server only while it holds the data dir's lock.
  const id = configured !== '' ? configured : unsharedId(dataDir, serving);
  inUse.add(id);
  const boot = randomBytes(6).toString('hex');
  return { id, boot, owner: `${id}/${boot}` };
}

/** The saved id when no live server (nor instance of this process) holds it, else one of this run alone. */
function unsharedId(dataDir: string, serving: boolean): string {
  if (!serving) {
    const id = heldByServer(dataDir) ? runId() : persistedId(dataDir);
    return inUse.has(id) ? runId() : id;
  }
  const lock = lockDataDir(dataDir);
  if (lock === 'unlockable')
    process.emitWarning(
      `cannot lock ${join(dataDir, `${INSTANCE_ID_FILE}.lock`)}: this server runs under an id of its own run, so after a crash its leases wait to expire`,
    );
  if (typeof lock === 'string') return runId();
  const id = persistedId(dataDir);
  if (inUse.has(id)) {
    lock.close();
    return runId();
  }
  locks.set(id, lock);
  return id;
}

/** What the owner of a lease held by any run of `identity`'s instance starts with: `<id>/`. */
export function earlierRunPrefix(identity: InstanceIdentity): string {
  return `${identity.id}/`;
}

function persistedId(dataDir: string): string {
  const file = join(dataDir, INSTANCE_ID_FILE);
  try {
    const saved = readFileSync(file, 'utf8').trim();
    if (INSTANCE_ID_PATTERN.test(saved)) return saved;
  } catch {
    // none yet
  }
  const id = runId();
  try {
    mkdirSync(dataDir, { recursive: true });
    // Written whole under another name, then renamed: a reader never sees half an id.
    writeFileSync(`${file}.${process.pid}`, `${id}\n`, { mode: 0o600 });
    renameSync(`${file}.${process.pid}`, file);
  } catch {
    // A read-only data dir: the id lives as long as the process (leases then wait to expire).
  }
  return id;
}

/** The instance closed: its id may serve the next instance this process opens on the same data dir. */
export function releaseInstanceId(identity: InstanceIdentity): void {
  inUse.delete(identity.id);
  locks.get(identity.id)?.close();
  locks.delete(identity.id);
}

const runId = (): string => `ins_${randomBytes(8).toString('hex')}`;

/** The data-dir locks this process holds, by the id they hold (kept referenced so they stay open). */
const locks = new Map<string, BetterSqlite3.Database>();

/** Tries to take the data dir's lock at most this many times, a few ms apart (see lockDataDir). */
const LOCK_TRIES = 5;

/**
 * Takes `<dataDir>/instance-id.lock` until the instance is released: the open connection holding
 * it, 'held' when another live process (or instance of this one) holds it, 'unlockable' when it
 * cannot be taken (a read-only or full data dir, a file system without locks, a lock file of
 * another user). The lock is the operating system's (SQLite's exclusive locking mode, an fcntl
 * lock on the file): the kernel releases it when its holder exits, even by kill -9, so there is no
 * stale record to break and no window in which two starts racing over one can both win (a pid
 * file claimed with links had one: a start moving a stale file aside could move a fresh claim).
 */
function lockDataDir(dataDir: string): BetterSqlite3.Database | 'held' | 'unlockable' {
  for (let attempt = 1; ; attempt++) {
    let db: BetterSqlite3.Database | undefined;
    try {
      mkdirSync(dataDir, { recursive: true });
      db = new (driver())(join(dataDir, `${INSTANCE_ID_FILE}.lock`), { timeout: 0 });
      // No journal first, in the normal locking mode, so that setting it keeps no lock; then a
      // write takes the exclusive lock, and the exclusive locking mode keeps it until the
      // connection closes. With no journal, the lock file is the only file there is. The write is
      // the holder's pid, for an operator asking who holds it (`select pid from holder`).
      db.pragma('journal_mode = OFF');
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS holder (pid INTEGER); DELETE FROM holder;');
      db.prepare('INSERT INTO holder (pid) VALUES (?)').run(process.pid);
      db.exec('COMMIT');
      return db;
    } catch (err) {
      db?.close();
      if (!busy(err)) return 'unlockable';
      // Two starts at the same moment can each hold the other off (each keeps the shared lock
      // its attempt took); both close, and one of them wins the next try.
      if (attempt === LOCK_TRIES) return 'held';
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.floor(Math.random() * 20));
    }
  }
}

/** Whether a live process holds the data dir's lock (its exclusive lock refuses even a read). */
function heldByServer(dataDir: string): boolean {
  try {
    const reader = new (driver())(join(dataDir, `${INSTANCE_ID_FILE}.lock`), {
      readonly: true,
      fileMustExist: true,
      timeout: 0,
    });
    try {
      reader.prepare('SELECT count(*) FROM sqlite_master').get();
    } finally {
      reader.close();
    }
    return false;
  } catch (err) {
    return busy(err);
  }
}

const driver = () => createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

const busy = (err: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test((err as { code?: string }).code ?? '');
