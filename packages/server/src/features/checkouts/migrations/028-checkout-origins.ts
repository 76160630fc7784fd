import { sql, type Kysely } from 'kysely';

/**
 * v28 (selling without code, spec/commerce.md "Shared decisions"): a checkout remembers the
 * payment link or invoice that made it, the payer's email, and its receipt number once settled.
 * The indexes serve the checkout list's `?paymentLinkId=` / `?invoiceId=` filters, a link's count of
 * live and settled checkouts, and the search by email; a receipt number is unique per merchant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['payment_link_id', 'invoice_id', 'customer_email', 'receipt_number'])
    await db.schema.alterTable('checkouts').addColumn(column, 'text').execute();
  const index = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('checkouts').columns(columns).execute();
  await index('checkouts_merchant_link', ['merchant_id', 'payment_link_id', 'created_at']);
  await index('checkouts_merchant_invoice', ['merchant_id', 'invoice_id', 'created_at']);
  await sql`create index checkouts_merchant_email_lower on checkouts (merchant_id, lower(customer_email))`.execute(db);
  await db.schema
    .createIndex('checkouts_merchant_receipt')
    .on('checkouts')
    .columns(['merchant_id', 'receipt_number'])
    .unique()
    .execute();
}
