import { Decimal, Payout, RefundLink, writeExactJson } from '@hostpay/protocol';
import { type TSchema, Type } from '@sinclair/typebox';
import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import { checkPayoutAddress } from '../payouts/address.js';
import { payoutView } from '../payouts/queries.js';
import type { Outbox } from '../events/outbox.js';
import { requestPayout } from '../payouts/request.js';
import type { RefundPayouts } from './payouts-seam.js';

/** Refunds move money out: the payouts' scope, never granted by default. */
export const REFUND_SCOPE = 'payouts:write' as const;

// The payout's shape without its `$id`: inlined here, it never clashes with the shared schema of that id.
const { $id: _payoutId, ...PayoutShape } = Payout;

/** What POST …/refunds answers: the payout (with `refundOf`), or without a destination the refund link. */
export const REFUND_RESULT: TSchema = Type.Union([PayoutShape, RefundLink]);

/** Refunds that took or may still take money: every payout with this refundOf but those given up. */
export async function refundedSoFar(db: Db, checkoutId: string): Promise<Decimal> {
  const rows = await db
    .selectFrom('payouts')
    .select('amount')
    .where('refund_of', '=', checkoutId)
    .where('status', 'not in', ['rejected', 'canceled', 'failed'])
    .execute();
  return rows.reduce((sum, r) => sum.plus(String(r.amount)), new Decimal(0));
}

/**
 * The refunds' seam to features/payouts: its per-chain address validator, its network fee table
 * and `requestPayout`, which freezes, writes the payout, its timeline and its events inside the
 * refund's transaction. A merchant's address must be an active destination of its address book;
 * a payer's is `source: 'payer'` (no cooling-off), asked by `system`.
 */
export function payoutsForRefunds(dialect: 'sqlite' | 'postgres', outbox: Outbox): RefundPayouts {
  return {
    async checkAddress(trx, chainId, address) {
      const chain = await trx
        .selectFrom('chains')
        .select(['symbol', 'family', 'network_type'])
        .where('id', '=', chainId)
        .executeTakeFirstOrThrow();
      return checkPayoutAddress(chain, address);
    },
    async networkFee(trx, assetId, chainId) {
      const row = await trx
        .selectFrom('payout_network_fees')
        .select('fee')
        .where('asset_id', '=', assetId)
        .where('chain_id', '=', chainId)
        .executeTakeFirst();
      return new Decimal(String(row?.fee ?? '0'));
    },
    async request(trx, req) {
      const wallet = await trx
        .selectFrom('wallets')
        .select('id')
        .where('merchant_id', '=', req.merchantId)
        .where('asset_id', '=', req.assetId)
        .where('chain_id', '=', req.chainId)
        .executeTakeFirst();
      if (wallet === undefined)
        throw new HostpayError(
          'INSUFFICIENT_FUNDS',
          'the merchant has no wallet in the checkout’s asset and chain to pay the refund from',
        );
      const payout = await requestPayout(
        trx,
        { dialect, at: req.at, outbox },
        {
          merchantId: req.merchantId,
          walletId: wallet.id,
          amount: req.amount.toFixed(),
          // The merchant's address goes through its address book like any payout's (a stolen key
          // cannot refund to an address of its own without the cooling-off); a payer's skips it.
          destination:
            req.source === 'payer'
              ? { source: 'payer', address: req.destination }
              : { source: 'book', address: req.destination },
          refundOf: req.refundOf,
          id: req.payoutId,
          by: req.source === 'payer' ? 'system' : 'merchant',
        },
      );
      return { id: payout.row.id, total: new Decimal(payout.row.total), json: writeExactJson(payoutView(payout)) };
    },
  };
}
