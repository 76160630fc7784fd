import { sql, type Kysely } from 'kysely';

/**
 * v26 (reports and search):
 * the indexes the reports' keyset cursors and the merchant search read through
 * (docs/reports.md, "Indexes and plans").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const index = (name: string, table: string, columns: string[]) =>
    db.schema.createIndex(name).on(table).columns(columns).execute();
  const lower = (name: string, table: string, column: string) =>
    db.schema
      .createIndex(name)
      .on(table)
      .expression(sql`lower(${sql.ref(column)})`)
      .execute();
  // Reports: rows oldest first by (time, id), a page at a time.
  await index('ledger_postings_wallet_time', 'ledger_postings', ['wallet_id', 'created_at', 'id']);
  await index('transfers_detected', 'transfers', ['detected_at', 'id']);
  await index('checkout_timeline_status_at', 'checkout_timeline', ['status', 'at', 'checkout_id']);
  await index('payouts_merchant_created_id', 'payouts', ['merchant_id', 'created_at', 'id']);
  // Search: exact values within one merchant (addresses and hashes case-insensitively for EVM).
  await index('checkouts_merchant_order', 'checkouts', ['merchant_id', 'order_id']);
  await index('checkouts_merchant_amount', 'checkouts', ['merchant_id', 'amount']);
  await index('checkout_options_amount', 'checkout_options', ['amount_due']);
  await lower('checkout_options_address_lower', 'checkout_options', 'address');
  await lower('transfers_tx_lower', 'transfers', 'tx_hash');
  await index('transfers_amount', 'transfers', ['amount']);
  await index('payouts_merchant_amount', 'payouts', ['merchant_id', 'amount']);
  await index('payouts_merchant_total', 'payouts', ['merchant_id', 'total']);
  await lower('payouts_destination_lower', 'payouts', 'destination');
  await lower('payouts_tx_lower', 'payouts', 'tx_hash');
}
