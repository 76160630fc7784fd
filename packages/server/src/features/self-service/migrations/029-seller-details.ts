import type { Kysely } from 'kysely';

/**
 * v29 (spec/commerce.md, "Invoices", "Receipts", "Email"): the seller details invoices and
 * receipts print (`legal_name`, `address`, `tax_id`, `support_email`, also the mails' Reply-To),
 * the prefix of invoice numbers (`INV` when null) and whether payers with an email are mailed
 * their receipt (on unless the merchant turns it off). Existing merchants keep every default.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['legal_name', 'address', 'tax_id', 'support_email', 'invoice_prefix'])
    await db.schema.alterTable('merchants').addColumn(column, 'text').execute();
  await db.schema
    .alterTable('merchants')
    .addColumn('email_receipts', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
