import { sql, type SqlBool } from 'kysely';
import type { Store } from '../../store/store.js';

/** What a claim needs to know of the worker that makes it. */
export interface ClaimRequest {
  /** The owner the leases are written for. */
  owner: string;
  /** Now and the end of the new leases, ISO. */
  now: string;
  until: string;
  /** Endpoints this worker serves already. */
  busy: string[];
  /** Endpoints served here now, per merchant. */
  perMerchant: ReadonlyMap<string, number>;
  /** A merchant's most endpoints served at once here. */
  cap: number;
  /** Most endpoints to take. */
  limit: number;
  /** The owner prefix of an earlier run of this instance, whose leases are free at once. */
  earlier: string | undefined;
}

/**
 * Leases up to `limit` endpoints that have due deliveries and no live lease, fairly across
 * merchants: candidates are ranked within their merchant (ROW_NUMBER per merchant) and taken
 * rank by rank, so every merchant with due work gets its first endpoint before any gets a
 * second, and a merchant already holding `cap` slots here gets none. The lease is
 * taken by a conditional UPDATE (lease still free), so two instances that picked the same
 * candidate (PostgreSQL) cannot both get it: the second waits for the first's row lock and
 * then finds the lease taken.
 */
export function claimEndpoints(store: Store, claim: ClaimRequest): Promise<{ id: string; merchantId: string }[]> {
  const { owner, now, until, busy, cap, limit, earlier } = claim;
  const full = [...claim.perMerchant].filter(([, n]) => n >= cap).map(([m]) => m);
  /** The lease is free: none, expired, or an earlier run's (`p`: the table's alias and a dot, or ''). */
  const leaseFree = (p: string) => {
    const expires = sql.ref(`${p}lease_expires_at`);
    const holder = sql.ref(`${p}lease_owner`);
    // A byte prefix test (substr): collations may order '/' anywhere.
    const earlierRun =
      earlier === undefined
        ? sql``
        : sql` or (substr(${holder}, 1, ${earlier.length}) = ${earlier} and ${holder} != ${owner})`;
    return sql<SqlBool>`(${expires} is null or ${expires} < ${now}${earlierRun})`;
  };
  return store.writeTransaction(async (trx) => {
    let inner = trx
      .selectFrom('webhook_endpoints as e')
      .select([
        'e.id',
        'e.merchant_id',
        sql<number>`row_number() over (partition by e.merchant_id order by e.lease_expires_at, e.id)`.as('rank'),
      ])
      .where('e.disabled', '=', 0)
      .where(leaseFree('e.'))
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('webhook_deliveries as d')
            .select(sql`1`.as('one'))
            .whereRef('d.endpoint_id', '=', 'e.id')
            .where('d.status', '=', 'pending')
            .where('d.next_attempt_at', '<=', now),
        ),
      );
    if (busy.length > 0) inner = inner.where('e.id', 'not in', busy);
    if (full.length > 0) inner = inner.where('e.merchant_id', 'not in', full);
    const rows = await trx
      .selectFrom(inner.as('c'))
      .select(['c.id', 'c.merchant_id'])
      .where('c.rank', '<=', cap)
      .orderBy('c.rank')
      .orderBy('c.id')
      // Room for the rows skipped below: a merchant already served here may use fewer than `cap`.
      .limit(limit + cap * claim.perMerchant.size)
      .execute();
    const taken = new Map(claim.perMerchant);
    const picked: { id: string; merchantId: string }[] = [];
    for (const r of rows) {
      if (picked.length >= limit) break;
      const n = taken.get(r.merchant_id) ?? 0;
      if (n >= cap) continue;
      taken.set(r.merchant_id, n + 1);
      picked.push({ id: r.id, merchantId: r.merchant_id });
    }
    if (picked.length === 0) return [];
    // Still free when taken: on PostgreSQL another instance may hold or have taken it since the
    // select, so the picked rows are locked with SKIP LOCKED first.
    let free = picked.map((p) => p.id);
    if (store.dialect === 'postgres')
      free = (
        await trx
          .selectFrom('webhook_endpoints')
          .select('id')
          .where('id', 'in', free)
          .where('disabled', '=', 0)
          .where(leaseFree(''))
          .forUpdate()
          .skipLocked()
          .execute()
      ).map((r) => r.id);
    if (free.length === 0) return [];
    const won = await trx
      .updateTable('webhook_endpoints')
      .set({ lease_owner: owner, lease_expires_at: until })
      .where('id', 'in', free)
      .where('disabled', '=', 0)
      .where(leaseFree(''))
      .returning('id')
      .execute();
    const ids = new Set(won.map((w) => w.id));
    return picked.filter((p) => ids.has(p.id));
  });
}

/** Extends the lease `owner` holds until `until` (ISO); false when the lease is no longer its own. */
export async function renewLease(store: Store, endpointId: string, owner: string, until: string): Promise<boolean> {
  const r = await store.writeTransaction((trx) =>
    trx
      .updateTable('webhook_endpoints')
      .set({ lease_expires_at: until })
      .where('id', '=', endpointId)
      .where('lease_owner', '=', owner)
      .executeTakeFirst(),
  );
  return (r.numUpdatedRows ?? 0n) > 0n;
}

/** Gives the endpoint's lease back, if `owner` still holds it. */
export async function releaseLease(store: Store, endpointId: string, owner: string): Promise<void> {
  await store.writeTransaction((trx) =>
    trx
      .updateTable('webhook_endpoints')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', '=', endpointId)
      .where('lease_owner', '=', owner)
      .execute(),
  );
}
