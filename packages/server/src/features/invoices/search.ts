import { decimalText } from '@hostpay/protocol';
import { emailTerm, type RankedHit, type SearchSource } from '../reports/search.js';

interface InvoiceHitRow {
  id: string;
  status: string;
  number: string | null;
  total: string;
  currency: string;
  customer_name: string | null;
  created_at: string;
}

const summary = (i: InvoiceHitRow, matched: string) =>
  `${i.status} · ${i.number ?? 'draft'} · ${decimalText(i.total)} ${i.currency}${i.customer_name === null ? '' : ` · ${i.customer_name}`} · ${matched}`;

/**
 * Invoices in the merchant search (spec/commerce.md): by id, by number exactly (`INV-000012`),
 * by the customer's email exactly ignoring case, and by total as a number. Never by the public
 * page's token (only its hash is stored, and the token is the payer's capability). Id and number
 * read unique indexes; email and total their own (migration 34: `invoices_merchant_email_lower`,
 * `invoices_merchant_total`).
 */
export const invoiceSource: SearchSource = {
  scope: 'invoices:read',
  async find(db, merchantId, terms, limit) {
    const mine = db
      .selectFrom('invoices as i')
      .select(['i.id', 'i.status', 'i.number', 'i.total', 'i.currency', 'i.customer_name', 'i.created_at'])
      .where('i.merchant_id', '=', merchantId);
    const hits: RankedHit[] = [];
    const add = (rows: InvoiceHitRow[], matched: string) => {
      for (const i of rows)
        hits.push({ type: 'invoice', id: i.id, summary: summary(i, matched), createdAt: i.created_at });
    };
    add(await mine.where('i.id', '=', terms.text).limit(limit).execute(), 'invoice id');
    add(await mine.where('i.number', '=', terms.text).limit(limit).execute(), 'invoice number');
    const email = emailTerm(terms);
    if (email !== null)
      add(
        await mine
          .where((eb) => eb(eb.fn('lower', ['i.customer_email']), '=', email))
          .orderBy('i.created_at', 'desc')
          .limit(limit)
          .execute(),
        'customer email',
      );
    if (terms.amount !== null)
      add(
        await mine.where('i.total', '=', terms.amount).orderBy('i.created_at', 'desc').limit(limit).execute(),
        'total',
      );
    return hits;
  },
};
