import { Decimal, writeExactJson } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import { lockEventCounter, type EventType, type Outbox } from '../events/outbox.js';
import { balanceChangedJson, creditInTransaction } from '../ledger/service.js';
import { nextEvent, optionAtThreshold, optionTotals } from './decide.js';
import { checkoutFacts } from './engine-facts.js';
import { creditFor } from './pricing.js';
import { appendTimeline, loadCheckouts, lockCheckout, type LoadedCheckout } from './queries.js';
import { transition, type CheckoutEvent, type CheckoutReason, type CheckoutStatus } from './states.js';
import { checkoutView } from './view.js';
import { nextReceiptNumber } from './receipt-numbers.js';
import type { CheckoutMoveHandler, OperatorSettlement } from './moves.js';

/** The event each new status announces; a return to `open` (payment retracted) has no event type in the contract. */
const EVENT_OF: Partial<Record<CheckoutStatus, EventType>> = {
  underpaid: 'checkout.underpaid',
  processing: 'checkout.processing',
  settled: 'checkout.settled',
  expired: 'checkout.expired',
  canceled: 'checkout.canceled',
  needs_review: 'checkout.needs_review',
  invalid: 'checkout.invalid',
};

export interface EngineContext {
  dialect: 'sqlite' | 'postgres';
  publicBaseUrl: string;
  /** ISO time of this change. */
  at: string;
  /** Where the checkout's events go. */
  outbox: Outbox;
  /** The `checkoutMoves` contributions, run after each transition (moves.ts). */
  moveHandlers?: () => readonly CheckoutMoveHandler[];
}

export interface EvaluateResult {
  checkout: LoadedCheckout;
  /** Statuses moved through, in order ([] when nothing changed). */
  moves: CheckoutStatus[];
  /** Merchants whose wallet answers must be dropped after commit. */
  credited: string | null;
}

export type { OperatorSettlement } from './moves.js';

/**
 * Brings one checkout up to date inside the caller's write transaction: locks it, reads its
 * payments, and applies every transition they (and the clock) call for, each with its timeline
 * entry and its event, crediting the wallet on the move to `settled`. `explicit` is an event from
 * outside (merchant cancel, operator settle or reject), applied first; undefined from the table
 * means the move is not allowed (409).
 */
export async function evaluate(
  trx: Db,
  id: string,
  ctx: EngineContext,
  explicit?: { event: CheckoutEvent; settlement?: OperatorSettlement },
): Promise<EvaluateResult> {
  const row = await lockCheckout(trx, id, ctx.dialect);
  if (row === undefined) throw new HostpayError('NOT_FOUND', `checkout ${id} does not exist`);
  const [checkout] = await loadCheckouts(trx, [row]);
  const c = checkout!;
  const moves: CheckoutStatus[] = [];
  let credited: string | null = null;
  let seq = c.timeline.length;

  const apply = async (event: CheckoutEvent, settlement?: OperatorSettlement): Promise<boolean> => {
    const t = transition(c.row.status as CheckoutStatus, c.row.reason as CheckoutReason | null, event);
    if (t === undefined) return false;
    c.row.status = t.to;
    c.row.reason = t.reason;
    c.row.updated_at = ctx.at;
    if (t.to === 'settled') credited = await settle(trx, c, ctx, settlement);
    await appendTimeline(trx, c.row.id, seq, t.to, t.reason, ctx.at);
    c.timeline.push({ checkout_id: c.row.id, seq, status: t.to, reason: t.reason, at: ctx.at });
    seq++;
    moves.push(t.to);
    await trx
      .updateTable('checkouts')
      .set({
        status: c.row.status,
        reason: c.row.reason,
        updated_at: ctx.at,
        settled_option_id: c.row.settled_option_id,
        credited_posting_id: c.row.credited_posting_id,
        receipt_number: c.row.receipt_number,
      })
      .where('id', '=', c.row.id)
      .execute();
    const type = EVENT_OF[t.to];
    if (type !== undefined)
      await ctx.outbox.append(
        trx,
        c.row.merchant_id,
        type,
        writeExactJson(checkoutView(c, ctx.publicBaseUrl)),
        ctx.at,
        c.row.id,
      );
    for (const handler of ctx.moveHandlers?.() ?? [])
      await handler(trx, { checkout: c, to: t.to, reason: t.reason, at: ctx.at, settlement });
    return true;
  };

  if (explicit !== undefined) {
    // Whatever the payments and the clock already decided comes first (a cancel after expiry is refused).
    await settleFacts();
    if (!(await apply(explicit.event, explicit.settlement))) {
      throw new HostpayError(
        'CHECKOUT_STATE_CONFLICT',
        `checkout ${id} is ${c.row.status}${c.row.reason ? ` (${c.row.reason})` : ''}: this action is not possible in that state`,
        { status: c.row.status, reason: c.row.reason },
      );
    }
  }
  await settleFacts();
  return { checkout: c, moves, credited };

  async function settleFacts(): Promise<void> {
    // The table has no loops; the bound only guards against a bug turning into a hang.
    for (let i = 0; i < 8; i++) {
      const event = nextEvent(checkoutFacts(c, ctx.at));
      if (event === undefined || !(await apply(event))) return;
    }
  }
}

/**
 * Credits the merchant for a checkout reaching `settled`: by the payments on the option that met
 * the threshold (received − the fee locked on that option), or as the operator decided. At most
 * once per checkout: the posting's idempotency key is the checkout id.
 */
async function settle(
  trx: Db,
  c: LoadedCheckout,
  ctx: EngineContext,
  settlement: OperatorSettlement | undefined,
): Promise<string> {
  let credit: { assetId: string; chainId: string; amount: Decimal; optionId: string | null };
  if (settlement !== undefined) credit = { ...settlement, optionId: null };
  else {
    const facts = checkoutFacts(c, ctx.at);
    const met = optionAtThreshold(facts);
    const option = c.options.find((o) => o.id === met?.id);
    if (met === undefined || option === undefined)
      throw new Error(`checkout ${c.row.id} settles without an option at the threshold`);
    const received = optionTotals(met, facts.payments).received;
    credit = {
      assetId: option.asset_id,
      chainId: option.chain_id,
      amount: creditFor(received, new Decimal(option.fee_in_asset)),
      optionId: option.id,
    };
  }
  c.row.settled_option_id = credit.optionId;
  // Lock order (states.ts): the event counter, then the receipt counter, then the wallet. A
  // checkout paid in one step already holds the event counter (its `processing` event); one that
  // was `processing` takes it here.
  await lockEventCounter(trx, c.row.merchant_id, ctx.dialect);
  c.row.receipt_number ??= await nextReceiptNumber(trx, c.row.merchant_id);
  if (credit.amount.lte(0)) return c.row.merchant_id;
  const { posting, walletId } = await creditInTransaction(trx, ctx.dialect, {
    merchantId: c.row.merchant_id,
    assetId: credit.assetId,
    chainId: credit.chainId,
    amount: credit.amount,
    idempotencyKey: `checkout:${c.row.id}`,
    at: ctx.at,
  });
  c.row.credited_posting_id = posting.id;
  await ctx.outbox.append(
    trx,
    c.row.merchant_id,
    'wallet.balance_changed',
    balanceChangedJson(walletId, posting, { checkoutId: c.row.id }),
    ctx.at,
    c.row.id,
  );
  return c.row.merchant_id;
}
