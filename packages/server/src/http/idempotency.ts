import { createHash, randomBytes } from 'node:crypto';
import { instanceIdentity, type InstanceIdentity } from '../cluster/instance.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { HostpayError } from '../errors.js';
import { nowIso } from '../store/ids.js';
import type { AdminIdempotencyTable } from '../store/database.js';
import type { Db, Store } from '../store/store.js';

/**
 * Idempotent writes (`Idempotency-Key`). A key is claimed by inserting a pending row (status 0)
 * before the write runs; the primary key (operator, key) makes that insert the lock, so of several
 * concurrent identical requests exactly one executes and the others wait for its answer. The
 * answer is stored sealed under the master key: it can hold a new API secret.
 *
 * A claim has an owner (`<instance id>/<boot id>`, cluster/instance.ts) and a lease: a claim
 * whose owner is gone never blocks its key. A retry takes it over and runs the request
 * again when the claim belongs to an earlier run of the same instance (killed, restarted), to
 * this process but no request of it holds it (its answer could not be stored: the store was down),
 * or to any instance past its lease. Nothing else releases a pending claim.
 */
const PENDING = 0;

// --- repository: the admin_idempotency table ---------------------------------------------

/** True when this call inserted the row, false when (operator, key) already exists. */
export async function insertPending(
  db: Db,
  row: Omit<AdminIdempotencyTable, 'status' | 'body' | 'owner' | 'lease_until'> & {
    owner: string;
    lease_until: string;
  },
): Promise<boolean> {
  const res = await db
    .insertInto('admin_idempotency')
    .values({ ...row, status: PENDING, body: '' })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return (res.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export function findEntry(db: Db, operator: string, key: string): Promise<AdminIdempotencyTable | undefined> {
  return db
    .selectFrom('admin_idempotency')
    .selectAll()
    .where('operator', '=', operator)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function saveAnswer(
  db: Db,
  operator: string,
  key: string,
  status: number,
  sealedBody: string,
  owner: string,
): Promise<void> {
  await db
    .updateTable('admin_idempotency')
    .set({ status, body: sealedBody })
    .where('operator', '=', operator)
    .where('key', '=', key)
    .where('status', '=', PENDING)
    .where('owner', '=', owner)
    .execute();
}

/** Moves a pending claim from `from` (as read) to `to`; true when this call did it. */
export async function takeOver(
  db: Db,
  row: AdminIdempotencyTable,
  to: { owner: string; lease_until: string; request_hash: string },
): Promise<boolean> {
  let q = db
    .updateTable('admin_idempotency')
    .set(to)
    .where('operator', '=', row.operator)
    .where('key', '=', row.key)
    .where('status', '=', PENDING);
  q = row.owner === null ? q.where('owner', 'is', null) : q.where('owner', '=', row.owner);
  q = row.lease_until === null ? q.where('lease_until', 'is', null) : q.where('lease_until', '=', row.lease_until);
  const res = await q.executeTakeFirst();
  return (res.numUpdatedRows ?? 0n) > 0n;
}

/** Deletes the entry; with `createdAt`, only that generation of it; with `owner`, only a claim of that owner. */
export async function deleteEntry(
  db: Db,
  operator: string,
  key: string,
  createdAt?: string,
  owner?: string,
): Promise<void> {
  let q = db.deleteFrom('admin_idempotency').where('operator', '=', operator).where('key', '=', key);
  if (createdAt !== undefined) q = q.where('created_at', '=', createdAt);
  if (owner !== undefined) q = q.where('owner', '=', owner).where('status', '=', PENDING);
  await q.execute();
}

export async function deleteOlderThan(db: Db, cutoffIso: string): Promise<void> {
  await db.deleteFrom('admin_idempotency').where('created_at', '<', cutoffIso).execute();
}

// --- service ------------------------------------------------------------------------------

export interface IdempotentRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  /** The body in a canonical text form ('' for none). */
  body: string;
}

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: string };

export interface IdempotencyOptions {
  /** How long a key is remembered; an older entry is forgotten (default 24 h). */
  retentionMs?: number;
  /** How long a duplicate waits for the first request's answer before 409 (default 5 s). */
  waitMs?: number;
  /**
   * How long a claim of a live instance is honoured (default 30 s, well past any request: the
   * store's statement timeout and pool queue bound one): past it, a retry takes the claim over.
   */
  leaseMs?: number;
}

export function requestHash(req: IdempotentRequest): string {
  return createHash('sha256').update(`${req.method.toUpperCase()}\n${req.url}\n${req.body}`).digest('hex');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function adminIdempotency(
  { store, box, identity }: { store: Store; box: SecretBox; identity?: InstanceIdentity | undefined },
  options: IdempotencyOptions = {},
) {
  const db = store.db;
  const retentionMs = options.retentionMs ?? 86_400_000;
  const waitMs = options.waitMs ?? 5_000;
  const leaseMs = options.leaseMs ?? 30_000;
  const me = identity ?? instanceIdentity(`anon_${randomBytes(6).toString('hex')}`, '');
  /**
   * Requests of this process that hold a key, or are claiming it right now (`operator\nkey` → how
   * many). Counted from before the claiming statement is sent: its answer and a waiter's read of
   * the new row arrive on different connections in either order, so a waiter of this process may
   * see our row before we learn we hold it, and must not take it for an orphan.
   */
  const holders = new Map<string, number>();
  const slot = (operator: string, key: string) => `${operator}\n${key}`;
  const hold = (at: string) => holders.set(at, (holders.get(at) ?? 0) + 1);
  const letGo = (at: string) => {
    const n = (holders.get(at) ?? 0) - 1;
    if (n > 0) holders.set(at, n);
    else holders.delete(at);
  };
  /** Holds `at` while `attempt` runs, and keeps holding it only if the attempt claimed it. */
  async function holding(at: string, attempt: () => Promise<boolean>): Promise<boolean> {
    hold(at);
    let claimed = false;
    try {
      claimed = await attempt();
    } finally {
      if (!claimed) letGo(at);
    }
    return claimed;
  }
  /** Whether a pending claim's owner is gone, so a retry may take it over. */
  const ownerGone = (row: AdminIdempotencyTable, nowMs: number): boolean => {
    if (row.owner === null || row.lease_until === null) return true;
    if (row.owner === me.owner) return !holders.has(slot(row.operator, row.key));
    if (row.owner.startsWith(`${me.id}/`)) return true; // an earlier run of this instance
    return Date.parse(row.lease_until) < nowMs;
  };
  const aad = (operator: string, key: string) => `idempotency:${operator}:${key}`;
  let nextPrune = 0;

  async function prune(now: number): Promise<void> {
    if (now < nextPrune) return;
    nextPrune = now + 3_600_000;
    await deleteOlderThan(db, new Date(now - retentionMs).toISOString());
  }

  return {
    /**
     * Claims `key` for this request, or returns the stored answer of the same request made
     * before. A different request under the same key, or one still running after `waitMs`,
     * is 409 IDEMPOTENCY_CONFLICT.
     */
    async begin(operator: string, key: string, request: IdempotentRequest): Promise<IdempotencyClaim> {
      const hash = requestHash(request);
      const deadline = Date.now() + waitMs;
      await prune(Date.now());
      const lease = () => new Date(Date.now() + leaseMs).toISOString();
      const at = slot(operator, key);
      for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
        const inserted = await holding(at, () =>
          insertPending(db, {
            operator,
            key,
            request_hash: hash,
            created_at: nowIso(),
            owner: me.owner,
            lease_until: lease(),
          }),
        );
        if (inserted) return { kind: 'claimed' };
        const row = await findEntry(db, operator, key);
        if (row === undefined) continue; // released between our insert and read: try again
        if (Date.parse(row.created_at) < Date.now() - retentionMs) {
          await deleteEntry(db, operator, key, row.created_at);
          continue;
        }
        if (row.request_hash !== hash) {
          throw new HostpayError(
            'IDEMPOTENCY_CONFLICT',
            `Idempotency-Key ${key} was already used for a different request (method, path or body): send a new key for a new request`,
            { idempotencyKey: key },
          );
        }
        if (row.status !== PENDING) return { kind: 'replay', status: row.status, body: open(row) };
        // A claim whose owner is gone (killed, or its answer could not be stored): run it again.
        if (
          ownerGone(row, Date.now()) &&
          (await holding(at, () => takeOver(db, row, { owner: me.owner, lease_until: lease(), request_hash: hash })))
        )
          return { kind: 'claimed' };
        if (Date.now() + delay > deadline) {
          throw new HostpayError(
            'IDEMPOTENCY_CONFLICT',
            `a request with Idempotency-Key ${key} is still being processed: retry it in a few seconds to get its answer`,
            { idempotencyKey: key, inProgress: true },
          );
        }
        await sleep(delay);
      }
    },

    /** Stores the answer of a claimed request, for replays. */
    async complete(operator: string, key: string, status: number, body: string): Promise<void> {
      // Not stored, the request still holds the key: its caller releases it (exactly once).
      await saveAnswer(db, operator, key, status, box.seal(body, aad(operator, key)), me.owner);
      letGo(slot(operator, key));
    },

    /**
     * Forgets a claim whose request ended without an answer worth replaying (5xx), or whose answer
     * could not be stored. Even when the delete fails, this request holds the key no more: a
     * pending row of this process that no request holds is taken over by the next retry.
     */
    async release(operator: string, key: string): Promise<void> {
      try {
        await deleteEntry(db, operator, key, undefined, me.owner);
      } finally {
        letGo(slot(operator, key));
      }
    },
  };

  function open(row: AdminIdempotencyTable): string {
    try {
      return box.open(row.body, aad(row.operator, row.key)).toString('utf8');
    } catch {
      // Sealed under a master key this server no longer holds: the first answer is lost.
      throw new HostpayError(
        'IDEMPOTENCY_CONFLICT',
        `the answer to the earlier request with Idempotency-Key ${row.key} can no longer be read: check its outcome, then send a new key`,
        { idempotencyKey: row.key },
      );
    }
  }
}

export type AdminIdempotency = ReturnType<typeof adminIdempotency>;
