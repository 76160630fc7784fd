import { Decimal, decimalText, jsonDecimal, writeExactJson } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import { findCheckout, loadCheckouts } from '../checkouts/queries.js';
import { refundedSoFar } from './payouts-port.js';
import { refundability, refundTarget } from './refundable.js';

const num = (d: Decimal | string) => jsonDecimal(decimalText(d));

/**
 * A checkout's money as its merchant reads it (GET …/hosted-pay/{id}/refunds): received, the fee
 * kept, what the wallet was credited, what refunds took and what is still refundable, with each
 * refund. `refundState` is derived here and nowhere stored: the checkout's state table does not
 * know refunds, and a settled checkout stays settled however much of it went back.
 */
export async function checkoutMoney(db: Db, merchantId: string, checkoutId: string): Promise<string> {
  const row = await findCheckout(db, checkoutId);
  if (row === undefined || row.merchant_id !== merchantId)
    throw new HostpayError('NOT_FOUND', `checkout ${checkoutId} does not exist`);
  const [c] = await loadCheckouts(db, [row]);
  const target = refundTarget(c!);
  const received = target?.received ?? new Decimal(0);
  const credited =
    row.credited_posting_id === null
      ? undefined
      : await db
          .selectFrom('ledger_postings')
          .select('amount')
          .where('id', '=', row.credited_posting_id)
          .executeTakeFirst();
  const netCredited = credited === undefined ? new Decimal(0) : new Decimal(String(credited.amount));
  const refunded = await refundedSoFar(db, checkoutId);
  const r = refundability(c!, refunded);
  const refunds = await db
    .selectFrom('payouts')
    .select(['id', 'status', 'amount', 'destination', 'tx_hash', 'created_at'])
    .where('refund_of', '=', checkoutId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const refundState = refunded.lte(0) ? null : refunded.gte(received) ? 'refunded' : 'partially refunded';
  return writeExactJson({
    checkoutId,
    asset: target?.asset ?? null,
    chain: target?.chain ?? null,
    received: num(received),
    fee: credited === undefined ? null : num(Decimal.max(received.minus(netCredited), 0)),
    netCredited: num(netCredited),
    refunded: num(refunded),
    refundable: num(r.ok ? r.refundable : new Decimal(0)),
    refundState,
    refunds: refunds.map((p) => ({
      id: p.id,
      status: p.status,
      amount: num(String(p.amount)),
      destination: p.destination,
      txHash: p.tx_hash,
      createdAt: p.created_at,
    })),
  });
}
