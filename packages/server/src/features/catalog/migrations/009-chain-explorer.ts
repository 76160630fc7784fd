import type { Kysely } from 'kysely';

/**
 * v9: a chain's block-explorer link for transactions (`explorer_tx_url`, an https URL template
 * with `{tx}`), shown on the payment page's Paid screen next to each payment. Null (the default):
 * no link, so no payer is sent anywhere the operator did not choose.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('chains').addColumn('explorer_tx_url', 'text').execute();
}
