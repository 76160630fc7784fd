import type { Kysely } from 'kysely';

/**
 * v27 (operator reports): the indexes the operator's reports read through across every
 * merchant — payouts by creation time (the merchant's index leads with its id) and the payout
 * timeline by status and time (the reconciliation's completed, sent and pending payouts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('payouts_created_id').on('payouts').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('payout_timeline_status_at')
    .on('payout_timeline')
    .columns(['status', 'at', 'payout_id'])
    .execute();
}
