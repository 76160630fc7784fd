import type { ReportRow } from '@hostpay/protocol';
import { keysetRows, pageOf, ReportRecord, type Page, type PageRequest } from './page.js';

/** The payouts report (refunds included, with `refundOf`): one row per payout created in the range. */
export async function payoutsPage(req: PageRequest): Promise<Page> {
  const { db } = req;
  let q = db
    .selectFrom('payouts as p')
    .innerJoin('assets as a', 'a.id', 'p.asset_id')
    .innerJoin('chains as ch', 'ch.id', 'p.chain_id')
    .select([
      'p.id',
      'p.created_at',
      'p.status',
      'p.refund_of',
      'p.reference',
      'p.wallet_id',
      'ch.symbol as chain',
      'a.symbol as asset',
      'p.amount',
      'p.network_fee',
      'p.total',
      'p.destination',
      'p.tx_hash',
    ]);
  if (req.merchantId !== null) q = q.where('p.merchant_id', '=', req.merchantId);
  const rows = await keysetRows(q, req, 'p.created_at', 'p.id');
  const ids = rows.map((r) => r.id);
  const completed = new Map<string, string>();
  if (ids.length > 0) {
    const entries = await db
      .selectFrom('payout_timeline')
      .select(['payout_id', 'at'])
      .where('payout_id', 'in', ids)
      .where('status', '=', 'completed')
      .orderBy('payout_id')
      .orderBy('seq')
      .execute();
    // The last completion counts: a reorganisation can send a completed payout back to `sent`.
    for (const e of entries) completed.set(e.payout_id, e.at);
  }
  const out: ReportRow[] = rows.map(
    (p) =>
      new ReportRecord({
        id: p.id,
        createdAt: p.created_at,
        status: p.status,
        refundOf: p.refund_of,
        reference: p.reference,
        walletId: p.wallet_id,
        chain: p.chain,
        asset: p.asset,
        amount: p.amount,
        networkFee: p.network_fee,
        total: p.total,
        destination: p.destination,
        txHash: p.tx_hash,
        completedAt: p.status === 'completed' ? (completed.get(p.id) ?? null) : null,
      }),
  );
  return pageOf(
    rows,
    out,
    (r) => r.created_at,
    (r) => r.id,
  );
}
