import { Decimal, writeExactJson, type EventType } from '@hostpay/protocol';
import type { Db, Store } from '../../store/store.js';
import type { CheckoutMove, CheckoutMoveHandler } from '../checkouts/moves.js';
import type { CheckoutService } from '../checkouts/service.js';
import type { Outbox } from '../events/outbox.js';
import { roundTo } from './money.js';
import { checkoutIdsOf, lockInvoice } from './queries.js';
import { cancelOpenCheckouts } from './service.js';
import { invoiceView, type InvoiceRow } from './view.js';

export interface InvoiceMovesDeps {
  store: Store;
  outbox: Outbox;
  checkouts: Pick<CheckoutService, 'cancelWithin'>;
  decimalsOf: (currency: string, db: Db) => Promise<number>;
  urlOf: (row: InvoiceRow) => string | null;
}

/**
 * What a settled checkout paid towards its invoice, in the invoice currency: its `amount` (the
 * tolerance counts as paid in full; an overpayment adds nothing). Settled by an operator from
 * review: what arrived in the settled asset and chain before the fee (the payments the operator
 * settled, not retracted) ÷ the option's rate, half-up to the currency's decimals, at most its
 * amount; 0 when the asset was none of its options (no rate to convert by).
 */
export function paidBy(move: CheckoutMove, decimals: number): Decimal {
  const amount = new Decimal(move.checkout.row.amount);
  const s = move.settlement;
  if (s === undefined) return amount;
  const option = move.checkout.options.find((o) => o.asset_id === s.assetId && o.chain_id === s.chainId);
  if (option === undefined) return new Decimal(0);
  const gross = move.checkout.transfers
    .filter((t) => t.retracted === 0 && t.asset_id === s.assetId && t.chain_id === s.chainId)
    .reduce((sum, t) => sum.plus(t.amount), new Decimal(0));
  return Decimal.min(roundTo(gross.div(option.rate), decimals), amount);
}

/**
 * The invoices' `checkoutMoves` handler (checkouts/moves.ts): inside the engine's transaction,
 * a settled checkout of an invoice adds what it paid to `amountPaid` and moves the invoice
 * (open → partially_paid → paid; uncollectible → paid once it is paid in full), with its event.
 * When the invoice becomes paid its other open checkouts are canceled in the same transaction.
 * Lock order: the checkout (the engine's), then the invoice, then the other checkouts.
 */
export function invoiceMoves(deps: InvoiceMovesDeps): CheckoutMoveHandler {
  return async (trx: Db, move: CheckoutMove) => {
    const invoiceId = move.checkout.row.invoice_id;
    if (invoiceId === null || move.to !== 'settled') return;
    const row = await lockInvoice(trx, invoiceId, deps.store.dialect);
    if (row === undefined || row.status === 'draft') return;
    const paid = paidBy(move, await deps.decimalsOf(row.currency, trx));
    const amountPaid = new Decimal(row.amount_paid).plus(paid);
    const full = amountPaid.gte(row.total);
    let status = row.status;
    let event: EventType | null = null;
    if (full && ['open', 'partially_paid', 'uncollectible'].includes(row.status)) {
      status = 'paid';
      event = 'invoice.paid';
    } else if (!full && paid.gt(0) && (row.status === 'open' || row.status === 'partially_paid')) {
      status = 'partially_paid';
      event = 'invoice.partially_paid';
    }
    const set: Partial<InvoiceRow> = {
      amount_paid: amountPaid.toFixed(),
      status,
      updated_at: move.at,
      ...(status === 'paid' && row.paid_at === null ? { paid_at: move.at } : {}),
    };
    await trx.updateTable('invoices').set(set).where('id', '=', invoiceId).execute();
    if (status === 'paid') await cancelOpenCheckouts(trx, deps.checkouts, invoiceId, move.checkout.row.id);
    if (event === null) return;
    const after = { ...row, ...set };
    const view = invoiceView(after, await checkoutIdsOf(trx, invoiceId), deps.urlOf(after));
    await deps.outbox.append(trx, row.merchant_id, event, writeExactJson(view), move.at);
  };
}
