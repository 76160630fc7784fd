import type { Store } from '../store/store.js';

/**
 * Which signatures of state-changing merchant requests were already accepted: a
 * signature is usable once, on every instance. With Redis, one `SET NX PX` per request decides
 * it for all instances; without Redis (or while it is unreachable) the store does, its primary key
 * (key id, signature) making the insert the check. Entries live as long as the signature's
 * timestamp is accepted: past that, checkTimestamp refuses the signature anyway.
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

export function usedSignatures(store: Store, claimOnce: ClaimOnce, now: () => number): UsedSignatures {
  const db = store.db;
  let nextPrune = 0;

  async function prune(nowMs: number): Promise<void> {
    if (nowMs < nextPrune) return;
    nextPrune = nowMs + PRUNE_EVERY_MS;
    await db.deleteFrom('used_signatures').where('expires_ms', '<', nowMs).execute();
  }

  async function insert(keyId: string, signature: string, expiresAtMs: number): Promise<boolean> {
    const res = await db
      .insertInto('used_signatures')
      .values({ key_id: keyId, signature, expires_ms: expiresAtMs })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return (res.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async function inStore(keyId: string, signature: string, expiresAtMs: number): Promise<boolean> {
    const nowMs = now();
    await prune(nowMs);
    if (await insert(keyId, signature, expiresAtMs)) return true;
    // An entry past its window not yet pruned does not count (only a moved clock meets one).
    const gone = await db
      .deleteFrom('used_signatures')
      .where('key_id', '=', keyId)
      .where('signature', '=', signature)
      .where('expires_ms', '<', nowMs)
      .executeTakeFirst();
    return (gone.numDeletedRows ?? 0n) > 0n && (await insert(keyId, signature, expiresAtMs));
  }

  return {
    async claim(keyId, signature, expiresAtMs) {
      const ttlMs = Math.max(1000, expiresAtMs - now());
      const shared = await claimOnce(`sig:${keyId}:${signature}`, ttlMs);
      return shared ?? inStore(keyId, signature, expiresAtMs);
    },
  };
}
