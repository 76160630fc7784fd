import { sql, type SqlBool } from 'kysely';
import type { Store } from '../../store/store.js';
import type { MailOutboxTable } from './tables.js';

/** The lease is free: none, expired, or an earlier run's of this instance. */
function leaseFree(now: string, owner: string, earlier: string) {
  return sql<SqlBool>`(lease_expires_at is null or lease_expires_at < ${now} or (substr(lease_owner, 1, ${earlier.length}) = ${earlier} and lease_owner != ${owner}))`;
}

/**
 * Leases up to `limit` due mails to `owner` until `until`: a conditional UPDATE (still pending,
 * lease still free), so two instances never both hold one mail; on PostgreSQL the candidates are
 * locked with SKIP LOCKED first, so instances take different mails rather than queue on one.
 * `earlier`: the owner prefix of this instance (`<id>/`), whose earlier runs' leases are free at once.
 */
export function claimMails(
  store: Store,
  c: { owner: string; earlier: string; now: string; until: string; limit: number },
): Promise<MailOutboxTable[]> {
  return store.writeTransaction(async (trx) => {
    let pick = trx
      .selectFrom('mail_outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', c.now)
      .where(leaseFree(c.now, c.owner, c.earlier))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(c.limit);
    if (store.dialect === 'postgres') pick = pick.forUpdate().skipLocked();
    const ids = (await pick.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    return trx
      .updateTable('mail_outbox')
      .set({ lease_owner: c.owner, lease_expires_at: c.until })
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .where(leaseFree(c.now, c.owner, c.earlier))
      .returningAll()
      .execute();
  });
}

/** Mails to payers of the merchant and mails to the address, sent or kept since `since` (the limits). */
export async function recentCounts(
  store: Store,
  row: Pick<MailOutboxTable, 'merchant_id' | 'to_address'>,
  daySince: string,
  hourSince: string,
): Promise<{ merchantPayer: number; recipient: number }> {
  const done = ['sent', 'kept'] as const;
  const merchantPayer =
    row.merchant_id === null
      ? 0
      : Number(
          (
            await store.db
              .selectFrom('mail_outbox')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('merchant_id', '=', row.merchant_id)
              .where('to_role', '=', 'payer')
              .where('status', 'in', done)
              .where('sent_at', '>=', daySince)
              .executeTakeFirstOrThrow()
          ).n,
        );
  const recipient = Number(
    (
      await store.db
        .selectFrom('mail_outbox')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('to_address', '=', row.to_address)
        .where('kind', '!=', 'security')
        .where('status', 'in', done)
        .where('sent_at', '>=', hourSince)
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { merchantPayer, recipient };
}
