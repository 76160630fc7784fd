import type { QueryResult } from 'kysely';
import { prepared } from '../store/prepared.js';
import { runSteps, type Steps } from '../store/steps.js';
import type { Db, Store } from '../store/store.js';

/**
 * Which signatures of state-changing merchant requests were already accepted: a
 * signature is usable once, on every instance. With Redis, one `SET NX PX` per request decides
 * it for all instances (a turn's claims share one script call: claim-batch.ts); without Redis
 * (or while it is unreachable) the store does, its primary key (key id, signature) making the
 * insert the check. Entries live as long as the signature's timestamp is accepted: past that,
 * checkTimestamp refuses the signature anyway.
 *
 * Known gap, documented in docs/security.md: a signature first used through Redis and replayed
 * within its window to an instance that finds Redis unreachable is looked up in the store, which
 * never saw it.
 */
export interface UsedSignatures {
  /** True for the first use of (key, signature), false for any later one. */
  claim(keyId: string, signature: string, expiresAtMs: number): Promise<boolean>;
}

/** The Redis side (cluster/shared-state.ts): true set, false already there, undefined without Redis. */
export type ClaimOnce = (key: string, ttlMs: number) => Promise<boolean | undefined>;

/** How often expired rows are deleted from the store (at most; on the next claim after it). */
const PRUNE_EVERY_MS = 60_000;

/** The first use of (key, signature) inserts its row; a later one finds it. */
const insertUse = prepared(['keyId', 'signature', 'expiresMs'], (db, v) =>
  db
    .insertInto('used_signatures')
    .values({ key_id: v.keyId as string, signature: v.signature as string, expires_ms: v.expiresMs as number })
    .onConflict((oc) => oc.doNothing()),
);

const changed = (result: QueryResult<unknown>) => (result.numAffectedRows ?? 0n) > 0n;

/** The store's decision, as steps (store/steps.ts). */
function* claimSteps(db: Db, keyId: string, signature: string, expiresAtMs: number, nowMs: number): Steps<boolean> {
  const args = { keyId, signature, expiresMs: expiresAtMs };
  if (changed(yield insertUse.step(args))) return true;
  // An entry past its window not yet pruned does not count (only a moved clock meets one).
  const gone: QueryResult<unknown> = yield db
    .deleteFrom('used_signatures')
    .where('key_id', '=', keyId)
    .where('signature', '=', signature)
    .where('expires_ms', '<', nowMs);
  return changed(gone) && changed(yield insertUse.step(args));
}

export function usedSignatures(store: Store, claimOnce: ClaimOnce, now: () => number): UsedSignatures {
  const db = store.db;
  let nextPrune = 0;

  async function prune(nowMs: number): Promise<void> {
    if (nowMs < nextPrune) return;
    nextPrune = nowMs + PRUNE_EVERY_MS;
    await db.deleteFrom('used_signatures').where('expires_ms', '<', nowMs).execute();
  }

  async function inStore(keyId: string, signature: string, expiresAtMs: number): Promise<boolean> {
    const nowMs = now();
    await prune(nowMs);
    // SQLite: in the group commit, with the other writes of this turn (a statement of its own
    // was a commit of its own: 124 µs of each signed create, issue 44). PostgreSQL: as statements
    // of their own, each its own transaction, as before.
    if (store.dialect === 'sqlite')
      return store.writeSteps((trx) => claimSteps(trx, keyId, signature, expiresAtMs, nowMs));
    return runSteps(db, claimSteps(db, keyId, signature, expiresAtMs, nowMs));
  }

  return {
    async claim(keyId, signature, expiresAtMs) {
      const ttlMs = Math.max(1000, expiresAtMs - now());
      const shared = await claimOnce(`sig:${keyId}:${signature}`, ttlMs);
      return shared ?? inStore(keyId, signature, expiresAtMs);
    },
  };
}
