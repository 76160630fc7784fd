import type { Kysely } from 'kysely';

/**
 * v24: the signatures of state-changing merchant requests already accepted, so a
 * captured request cannot be sent again within its timestamp's window (auth/single-use.ts). The
 * primary key makes the insert the check: of two uses, exactly one inserts. Rows are deleted once
 * their window is over; with Redis configured they are kept there instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('used_signatures')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('expires_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('used_signatures_pk', ['key_id', 'signature'])
    .execute();
  await db.schema.createIndex('used_signatures_expiry').on('used_signatures').column('expires_ms').execute();
}
