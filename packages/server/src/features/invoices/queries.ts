import { brandOf } from '../self-service/look.js';
import type { Db } from '../../store/store.js';
import type { InvoiceRow } from './view.js';

/** The invoice's row, locked for the rest of the transaction on PostgreSQL (SQLite: one writer at a time). */
export function lockInvoice(db: Db, id: string, dialect: 'sqlite' | 'postgres'): Promise<InvoiceRow | undefined> {
  const q = db.selectFrom('invoices').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

/** The checkouts made to pay an invoice, oldest first. */
export async function checkoutIdsOf(db: Db, invoiceId: string): Promise<string[]> {
  return (await checkoutIdsOfMany(db, [invoiceId])).get(invoiceId) ?? [];
}

/** The checkouts of several invoices in one query (a list page), oldest first per invoice. */
export async function checkoutIdsOfMany(db: Db, invoiceIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (invoiceIds.length === 0) return out;
  const rows = await db
    .selectFrom('checkouts')
    .select(['id', 'invoice_id'])
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const r of rows) out.set(r.invoice_id!, [...(out.get(r.invoice_id!) ?? []), r.id]);
  return out;
}

/**
 * The next number under the merchant's `prefix`, inside the finalize transaction: the counter row
 * is made once (a concurrent first finalize finds it made) and then locked by the increment, so
 * two finalizes, on any instance, take two consecutive numbers and a rolled-back one takes none.
 */
export async function nextNumber(trx: Db, merchantId: string, prefix: string): Promise<number> {
  await trx
    .insertInto('invoice_number_counters')
    .values({ merchant_id: merchantId, prefix, last_number: 0 })
    .onConflict((oc) => oc.columns(['merchant_id', 'prefix']).doNothing())
    .execute();
  const row = await trx
    .updateTable('invoice_number_counters')
    .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
    .where('merchant_id', '=', merchantId)
    .where('prefix', '=', prefix)
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

/** What an invoice shows of its merchant: name, logo, seller details, invoice prefix. */
export async function sellerOf(db: Db, merchantId: string) {
  const m = await db
    .selectFrom('merchants')
    .select([
      'name',
      'display_name',
      'logo_url',
      'legal_name',
      'address',
      'tax_id',
      'support_email',
      'invoice_prefix',
      'default_language',
      'brand_color',
      'accent_color',
    ])
    .where('id', '=', merchantId)
    .executeTakeFirstOrThrow();
  return {
    // The name payers see everywhere else (the payment page, link pages, mails).
    name: m.display_name ?? m.name,
    logoUrl: m.logo_url,
    legalName: m.legal_name,
    address: m.address,
    taxId: m.tax_id,
    supportEmail: m.support_email,
    prefix: m.invoice_prefix,
    /** The payers' default language and the page colours (settings), as the payment page takes them. */
    language: m.default_language,
    brand: brandOf({ brandColor: m.brand_color, accentColor: m.accent_color }),
  };
}

export type Seller = Awaited<ReturnType<typeof sellerOf>>;
