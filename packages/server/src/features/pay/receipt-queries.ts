import type { Db } from '../../store/store.js';

/** What a receipt shows of its merchant beyond the page's name and logo: the seller details. */
export interface SellerFacts {
  merchantId: string;
  legalName: string | null;
  address: string | null;
  taxId: string | null;
  supportEmail: string | null;
  receiptNumber: string | null;
  paymentLinkId: string | null;
  invoiceId: string | null;
}

export async function sellerFacts(db: Db, checkoutId: string): Promise<SellerFacts | undefined> {
  const row = await db
    .selectFrom('checkouts as k')
    .innerJoin('merchants as m', 'm.id', 'k.merchant_id')
    .select([
      'k.merchant_id',
      'k.receipt_number',
      'k.payment_link_id',
      'k.invoice_id',
      'm.legal_name',
      'm.address',
      'm.tax_id',
      'm.support_email',
    ])
    .where('k.id', '=', checkoutId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    merchantId: row.merchant_id,
    legalName: row.legal_name,
    address: row.address,
    taxId: row.tax_id,
    supportEmail: row.support_email,
    receiptNumber: row.receipt_number,
    paymentLinkId: row.payment_link_id,
    invoiceId: row.invoice_id,
  };
}

/** A refund sent back to the payer (a completed payout with `refundOf`), for the receipt's lines. */
export interface RefundFact {
  asset: string;
  chain: string;
  amount: string;
  txHash: string | null;
  at: string;
}

export async function refundFacts(db: Db, checkoutId: string): Promise<RefundFact[]> {
  const rows = await db
    .selectFrom('payouts as p')
    .innerJoin('assets as a', 'a.id', 'p.asset_id')
    .innerJoin('chains as c', 'c.id', 'p.chain_id')
    .select(['a.symbol as asset', 'c.symbol as chain', 'p.amount', 'p.tx_hash', 'p.updated_at'])
    .where('p.refund_of', '=', checkoutId)
    .where('p.status', '=', 'completed')
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({ asset: r.asset, chain: r.chain, amount: r.amount, txHash: r.tx_hash, at: r.updated_at }));
}
