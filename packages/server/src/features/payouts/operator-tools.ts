import { Decimal, decimalText, jsonDecimal } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { payoutsWithNames } from './queries.js';

/**
 * The operators' tools around the manual sender: the queue export (JSON rows or CSV) and the
 * network fee estimates per chain and asset that every request freezes with its amount.
 */
export function payoutOperatorTools(store: Store, nowIso: () => string) {
  const db = store.db;

  async function chainRow(symbol: string) {
    const chain = await db
      .selectFrom('chains')
      .select(['id', 'symbol'])
      .where('symbol', '=', symbol.toUpperCase())
      .executeTakeFirst();
    if (chain === undefined) throw new HostpayError('NOT_FOUND', `chain ${symbol} does not exist`);
    return chain;
  }

  return {
    /** The manual sender's queue: approved payouts, oldest first, as rows or CSV text. */
    async exportApproved(filter: { chain?: string | undefined; format: 'json' | 'csv' }) {
      let q = payoutsWithNames(db).where('p.status', '=', 'approved');
      if (filter.chain !== undefined) q = q.where('c.symbol', '=', filter.chain.toUpperCase());
      const rows = await q.orderBy('p.created_at').orderBy('p.id').limit(10_000).execute();
      const items = rows.map((r) => ({
        id: r.id,
        merchantId: r.merchant_id,
        chain: r.chain_symbol,
        network: r.network_name,
        asset: r.asset_symbol,
        contract: r.token_contract,
        amount: jsonDecimal(decimalText(r.amount)),
        networkFee: jsonDecimal(decimalText(r.network_fee)),
        destination: r.destination,
        reference: r.reference,
        refundOf: r.refund_of,
        createdAt: r.created_at,
      }));
      const csv =
        filter.format === 'csv'
          ? [
              'id,merchantId,chain,network,asset,contract,amount,networkFee,destination,reference,refundOf,createdAt',
              ...rows.map((r) =>
                [
                  r.id,
                  r.merchant_id,
                  r.chain_symbol,
                  r.network_name,
                  r.asset_symbol,
                  r.token_contract ?? '',
                  decimalText(r.amount),
                  decimalText(r.network_fee),
                  r.destination,
                  r.reference ?? '',
                  r.refund_of ?? '',
                  r.created_at,
                ]
                  .map(csvField)
                  .join(','),
              ),
            ].join('\n') + '\n'
          : null;
      return { format: filter.format, count: items.length, items, csv };
    },

    async setNetworkFee(p: { chain: string; asset: string; networkFee: string }, audit: AuditContext) {
      const chain = await chainRow(p.chain);
      const asset = await db
        .selectFrom('assets')
        .select(['id', 'symbol', 'decimals'])
        .where('symbol', '=', p.asset.toUpperCase())
        .executeTakeFirst();
      if (asset === undefined) throw new HostpayError('NOT_FOUND', `asset ${p.asset} does not exist`);
      // Checked before Decimal reads it: Decimal throws on text that is no number (a 500, not a 400).
      const fee = /^[0-9]+(\.[0-9]+)?$/.test(p.networkFee) ? new Decimal(p.networkFee) : undefined;
      if (fee === undefined || fee.decimalPlaces() > asset.decimals)
        throw new HostpayError(
          'INVALID_AMOUNT',
          `networkFee must be a decimal ≥ 0 (e.g. "1.5") with at most ${asset.decimals} decimal places`,
        );
      const at = nowIso();
      const view = {
        chain: chain.symbol,
        asset: asset.symbol,
        networkFee: jsonDecimal(decimalText(fee)),
        updatedAt: at,
      };
      await store.writeTransaction(async (trx) => {
        const before = await trx
          .selectFrom('payout_network_fees')
          .select('fee')
          .where('chain_id', '=', chain.id)
          .where('asset_id', '=', asset.id)
          .executeTakeFirst();
        await trx
          .insertInto('payout_network_fees')
          .values({ chain_id: chain.id, asset_id: asset.id, fee: decimalText(fee), updated_at: at })
          .onConflict((oc) =>
            oc.columns(['chain_id', 'asset_id']).doUpdateSet({ fee: decimalText(fee), updated_at: at }),
          )
          .execute();
        await recordAudit(trx, audit, {
          action: 'payout_network_fee.set',
          objectType: 'payout_network_fee',
          objectId: `${chain.symbol}/${asset.symbol}`,
          before: before === undefined ? null : { networkFee: decimalText(before.fee) },
          after: view,
        });
      });
      return view;
    },

    async listNetworkFees() {
      const rows = await db
        .selectFrom('payout_network_fees as f')
        .innerJoin('chains as c', 'c.id', 'f.chain_id')
        .innerJoin('assets as a', 'a.id', 'f.asset_id')
        .select(['c.symbol as chain', 'a.symbol as asset', 'f.fee', 'f.updated_at'])
        .orderBy('c.symbol')
        .orderBy('a.symbol')
        .execute();
      return rows.map((r) => ({
        chain: r.chain,
        asset: r.asset,
        networkFee: jsonDecimal(decimalText(r.fee)),
        updatedAt: r.updated_at,
      }));
    },
  };
}

/** A CSV field, quoted when it holds a comma, quote or line break; a leading formula sign is neutralised. */
function csvField(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
