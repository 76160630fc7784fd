import { randomBytes } from 'node:crypto';
import {
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

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
 * `serving`: this process is a long-running server (`hostpay serve`), so it records its pid beside
 * the id and steps aside from an id another live server holds. Short-lived commands and in-process
 * instances only check the ids this process already holds.
 */
export function instanceIdentity(configured: string, dataDir: string, serving = false): InstanceIdentity {
  let id = configured !== '' ? configured : persistedId(dataDir);
  // Two live processes must never share an id, or each would take the other's leases for an
  // earlier run's and both would send. A data dir whose id another live process holds (two
  // `hostpay serve` started from one folder, or two instances in one process) gets an id of this
  // run alone: its leases then wait to expire, as they did before ids survived restarts.
  if (configured === '' && (inUse.has(id) || (serving && heldByAnotherProcess(dataDir))))
    id = `ins_${randomBytes(8).toString('hex')}`;
  inUse.add(id);
  const boot = randomBytes(6).toString('hex');
  return { id, boot, owner: `${id}/${boot}` };
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
  const id = `ins_${randomBytes(8).toString('hex')}`;
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${id}\n`, { mode: 0o600 });
  } catch {
    // A read-only data dir: the id lives as long as the process (leases then wait to expire).
  }
  return id;
}

/** The instance closed: its id may serve the next instance this process opens on the same data dir. */
export function releaseInstanceId(identity: InstanceIdentity): void {
  inUse.delete(identity.id);
}

/**
 * Whether a live process other than this one holds `<dataDir>/instance-id.pid`; if not, this
 * process claims it. The claim is atomic: the pid is written to a file of this process and
 * hard-linked into place, which fails when the file exists, so of two servers started at the
 * same moment exactly one gets it (reading, then writing, let both). A pid file whose process is
 * gone (kill -9) is moved aside under a name of this process before claiming; if what was moved
 * turns out to be a live server's fresh claim (two starts racing for one stale file), it is put
 * back and this process steps aside.
 */
function heldByAnotherProcess(dataDir: string): boolean {
  const file = join(dataDir, `${INSTANCE_ID_FILE}.pid`);
  const mine = `${file}.${process.pid}`;
  try {
    writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
  } catch {
    // A data dir this process cannot write: nothing to record, but a live server's record counts.
    const pid = pidIn(file);
    return pid !== undefined && pid !== process.pid && alive(pid);
  }
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (claim(mine, file)) return false;
      const pid = pidIn(file);
      if (pid === process.pid) return false;
      if (pid !== undefined ? alive(pid) : justWritten(file)) return true;
      if (!existsSync(file)) continue; // gone meanwhile: claim again
      // Stale: move it aside, and look at what was moved.
      const aside = `${file}.stale.${process.pid}`;
      try {
        renameSync(file, aside);
      } catch {
        continue; // another process moved it first: claim again
      }
      const moved = pidIn(aside);
      if (moved !== pid && (moved === undefined || alive(moved))) {
        // A racer's fresh claim: give it back (unless yet another claim took its place).
        claim(aside, file);
        rmSync(aside, { force: true });
        return true;
      }
      rmSync(aside, { force: true });
    }
    return true; // still contested after three tries: run under an id of this run alone
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * Creates `to` with the content of `from`, only if `to` does not exist; false when it does. A
 * hard link makes it appear whole; where links are not supported, an exclusive copy (which a
 * reader may see empty for a moment: see justWritten).
 */
function claim(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
  }
  try {
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    return true;
  } catch {
    return false;
  }
}

/** An unreadable or empty pid file younger than 5 s is a claim being written, not a stale one. */
function justWritten(file: string): boolean {
  try {
    return statSync(file).mtimeMs > Date.now() - 5_000;
  } catch {
    return false;
  }
}

function pidIn(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, owned by another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
