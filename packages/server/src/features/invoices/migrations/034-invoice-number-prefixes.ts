import { type Kysely, sql } from 'kysely';

/**
 * v34: invoice numbers count per prefix (spec/commerce.md: "gap-free under the merchant's
 * invoicePrefix"). A merchant who changes INV to ACME starts at ACME-000001 rather than at
 * ACME-000043, and going back to INV goes on from INV's last number. Counters are rebuilt from
 * the numbers already given (`<prefix>-` and six or more digits); uniqueness moves from
 * (merchant, seq) to (merchant, number). Also the indexes the invoice search reads (email, total).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invoice_number_counters')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_number_counters_pk', ['merchant_id', 'prefix'])
    .execute();
  // A number is `<prefix>-` then seq padded to at least six digits: the prefix is what precedes them.
  const prefix = sql`substr(number, 1, length(number) - 1 - (case when length(cast(seq as text)) > 6 then length(cast(seq as text)) else 6 end))`;
  await sql`insert into invoice_number_counters (merchant_id, prefix, last_number)
    select merchant_id, ${prefix}, max(seq) from invoices
    where number is not null and seq is not null
    group by merchant_id, ${prefix}`.execute(db);
  await db.schema.dropTable('invoice_counters').execute();
  await db.schema.dropIndex('invoices_merchant_seq').execute();
  await db.schema.dropIndex('invoices_merchant_number').execute();
  await db.schema
    .createIndex('invoices_merchant_number')
    .on('invoices')
    .columns(['merchant_id', 'number'])
    .unique()
    .execute();
  // Search (features/invoices/search.ts): a customer's email ignoring case, and a total.
  await sql`create index invoices_merchant_email_lower on invoices (merchant_id, lower(customer_email))`.execute(db);
  await db.schema.createIndex('invoices_merchant_total').on('invoices').columns(['merchant_id', 'total']).execute();
}
