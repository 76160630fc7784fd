import { Decimal, decimalText, writeExactJson, type PayoutActor } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { PayoutTable } from './tables.js';
import type { Db } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { lockEventCounter, type Outbox } from '../events/outbox.js';
import { balanceChangedJson, postInTransaction } from '../ledger/service.js';
import type { PayoutMoveGuard } from './guards.js';
import { appendPayoutTimeline, findPayout, lockPayout, payoutView, type LoadedPayout } from './queries.js';
import { payoutTransition, type PayoutMove, type PayoutStatus } from './states.js';

/**
 * The ledger key of the credit a refund of a never-credited checkout (in review, invalid) posts
 * before its payout freezes it: the refund's marker. A refund given up (rejected, canceled,
 * failed) debits that credit back in its final move, so the checkout's money stays uncredited.
 */
export const refundCreditKey = (payoutId: string) => `payout:${payoutId}:refund-credit`;

/** The reason of a payout back at zero confirmations after a reorganisation. */
export const REORG_REASON = 'reorganisation';

export interface MoveContext {
  dialect: 'sqlite' | 'postgres';
  /** ISO time of the change. */
  at: string;
  /** Where the payout's events go. */
  outbox: Outbox;
  /** Senders' vetoes (guards.ts): given for merchants', operators' and sandbox moves, not the senders' own. */
  guards?: readonly PayoutMoveGuard[] | undefined;
}

export interface MoveRequest {
  move: PayoutMove;
  by: PayoutActor;
  /** Only this merchant's payout (merchant routes): another's is 404, its existence not revealed. */
  merchantId?: string | undefined;
  reason?: string | null | undefined;
  txHash?: string | undefined;
  /**
   * A sender's `send` of a payout already `sent` with another hash is a `bump` (states.ts): why
   * its hash changed — a fee bump's replacement, or the one of the competing transactions the
   * chain mined. Named on the timeline with the hash it replaces.
   */
  replacement?: 'fee bump' | 'mined' | undefined;
  /** The actual network fee (sent, completed), in the payout's asset. */
  networkFee?: string | undefined;
  /** Operator moves are audited. */
  audit?: AuditContext | undefined;
  /**
   * The sender port's idempotency: when the move already happened (the payout is in its target
   * state with the same facts), return it unchanged instead of 409.
   */
  idempotent?: boolean | undefined;
}

export interface MoveResult {
  payout: LoadedPayout;
  moved: boolean;
  /** The merchant whose wallet answers must be dropped after commit, when money moved. */
  walletsOf: string | null;
}

/** Writes a posting of a payout with its `wallet.balance_changed` event (the caller holds the event counter). */
export async function postForPayout(
  trx: Db,
  ctx: MoveContext,
  p: { merchantId: string; walletId: string; payoutId: string },
  kind: 'freeze' | 'unfreeze' | 'debit',
  amount: Decimal,
  key: string,
): Promise<void> {
  if (amount.lte(0)) return;
  const { posting, replayed } = await postInTransaction(trx, ctx.dialect, {
    walletId: p.walletId,
    kind,
    amount,
    idempotencyKey: `payout:${p.payoutId}:${key}`,
    at: ctx.at,
  });
  if (replayed) return;
  await ctx.outbox.append(
    trx,
    p.merchantId,
    'wallet.balance_changed',
    balanceChangedJson(p.walletId, posting, { payoutId: p.payoutId }),
    ctx.at,
  );
}

function alreadyDone(row: PayoutTable, req: MoveRequest): boolean {
  switch (req.move) {
    case 'reorg':
      return row.status === 'sent' && row.confirmations === 0 && row.reason === REORG_REASON;
    case 'send':
    case 'bump':
      return ['sent', 'completed', 'failed'].includes(row.status) && row.tx_hash === req.txHash;
    case 'complete':
      return row.status === 'completed';
    case 'fail':
      return row.status === 'failed';
    default:
      return false;
  }
}

/**
 * A sender's report of another hash for a payout it already sent is a replacement at the same
 * nonce (a fee bump, or the competing transaction the chain mined), not a second send: the
 * table's `bump`. Operators reporting a hash by hand stay with `send` (409 once sent).
 */
function moveOf(row: PayoutTable, req: MoveRequest): PayoutMove {
  const replaced =
    req.move === 'send' &&
    req.by === 'system' &&
    req.idempotent === true &&
    row.status === 'sent' &&
    req.txHash !== undefined &&
    row.tx_hash !== req.txHash;
  return replaced ? 'bump' : req.move;
}

function parseFee(text: string, decimals: number): Decimal {
  let fee: Decimal;
  try {
    fee = new Decimal(text);
  } catch {
    throw new HostpayError('INVALID_AMOUNT', `networkFee ${JSON.stringify(text)} is not a decimal`);
  }
  if (!fee.isFinite() || fee.isNeg() || fee.decimalPlaces() > decimals)
    throw new HostpayError('INVALID_AMOUNT', `networkFee must be ≥ 0 with at most ${decimals} decimal places`);
  return fee;
}

/**
 * Applies one move of the state table to an existing payout inside the caller's write transaction:
 * the status, its timeline entry, its event(s), the ledger postings (each with its
 * `wallet.balance_changed`) and, for an operator, the audit record — all or nothing. Lock order
 * (states.ts): the payout row, the merchant's event counter, the wallet.
 */
export async function movePayout(trx: Db, ctx: MoveContext, id: string, req: MoveRequest): Promise<MoveResult> {
  const locked = await lockPayout(trx, id, ctx.dialect);
  if (locked === undefined || (req.merchantId !== undefined && locked.merchant_id !== req.merchantId))
    throw new HostpayError('NOT_FOUND', `payout ${id} does not exist`);
  const before = (await findPayout(trx, id))!;
  if (req.idempotent === true && alreadyDone(locked, req)) return { payout: before, moved: false, walletsOf: null };
  const move = moveOf(locked, req);
  const row = payoutTransition(locked.status as PayoutStatus, move, req.by);
  if (row === undefined) {
    throw new HostpayError(
      'PAYOUT_STATE_CONFLICT',
      `payout ${id} is ${locked.status}: ${move} by ${req.by} is not possible in that state`,
      { status: locked.status },
    );
  }
  for (const guard of ctx.guards ?? []) {
    const refused = await guard(trx, {
      payoutId: id,
      status: locked.status as PayoutStatus,
      move,
      by: req.by,
    });
    if (refused !== null)
      throw new HostpayError('PAYOUT_STATE_CONFLICT', refused.message, { status: locked.status, ...refused.details });
  }
  const next = { ...before.row };
  const owner = { merchantId: locked.merchant_id, walletId: locked.wallet_id, payoutId: id };
  if (req.networkFee !== undefined && (move === 'send' || move === 'complete')) {
    const fee = parseFee(req.networkFee, before.row.asset_decimals);
    next.network_fee = decimalText(fee);
    next.total = decimalText(new Decimal(next.amount).plus(fee));
  }
  if (move === 'send' || move === 'bump') {
    if (req.txHash === undefined) throw new HostpayError('INVALID_BODY', 'txHash is required to mark a payout sent');
    next.tx_hash = req.txHash;
    next.confirmations = 0;
  }
  if (move === 'reorg') next.confirmations = 0;
  next.status = row.to;
  next.reason = req.reason !== undefined ? req.reason : defaultReason(move, locked, req);
  next.updated_at = ctx.at;

  const frozen = new Decimal(locked.frozen);
  const moneyMoves = row.money !== null || !new Decimal(next.total).equals(before.row.total);
  if (moneyMoves) await lockEventCounter(trx, locked.merchant_id, ctx.dialect);
  if (row.money === 'unfreeze') {
    await postForPayout(trx, ctx, owner, 'unfreeze', frozen, 'unfreeze');
    next.frozen = '0';
    if (locked.refund_of !== null) {
      const credit = await trx
        .selectFrom('ledger_postings')
        .select('amount')
        .where('idempotency_key', '=', refundCreditKey(id))
        .executeTakeFirst();
      if (credit !== undefined)
        await postForPayout(trx, ctx, owner, 'debit', new Decimal(String(credit.amount)), 'refund-credit-back');
    }
  } else if (row.money === 'debit') {
    await postForPayout(trx, ctx, owner, 'unfreeze', frozen, 'unfreeze');
    await postForPayout(trx, ctx, owner, 'debit', new Decimal(next.total), 'debit');
    next.frozen = '0';
  } else if (!new Decimal(next.total).equals(frozen)) {
    // The actual fee differs from the estimate: what the payout holds follows its total.
    const diff = new Decimal(next.total).minus(frozen);
    if (diff.gt(0)) await postForPayout(trx, ctx, owner, 'freeze', diff, `fee-freeze:${move}`);
    else await postForPayout(trx, ctx, owner, 'unfreeze', diff.neg(), `fee-unfreeze:${move}`);
    next.frozen = next.total;
  }

  await trx
    .updateTable('payouts')
    .set({
      status: next.status,
      reason: next.reason,
      network_fee: next.network_fee,
      total: next.total,
      frozen: next.frozen,
      tx_hash: next.tx_hash,
      confirmations: next.confirmations,
      updated_at: next.updated_at,
    })
    .where('id', '=', id)
    .execute();
  const entry = { status: row.to, reason: next.reason, by: req.by, at: ctx.at };
  await appendPayoutTimeline(trx, id, before.timeline.length, entry);
  const after: LoadedPayout = {
    row: next,
    timeline: [...before.timeline, { payout_id: id, seq: before.timeline.length, ...entry }],
  };
  const json = writeExactJson(payoutView(after));
  for (const type of row.events) await ctx.outbox.append(trx, locked.merchant_id, type, json, ctx.at);
  if (req.audit !== undefined)
    await recordAudit(trx, req.audit, {
      action: `payout.${move}`,
      objectType: 'payout',
      objectId: id,
      before: { status: locked.status, total: before.row.total, frozen: locked.frozen },
      after: { status: next.status, reason: next.reason, total: next.total, txHash: next.tx_hash, frozen: next.frozen },
    });
  return { payout: after, moved: true, walletsOf: moneyMoves ? locked.merchant_id : null };
}

/** The reason a move leaves on the payout and its timeline entry when the caller gives none. */
function defaultReason(move: PayoutMove, locked: PayoutTable, req: MoveRequest): string | null {
  if (move === 'reorg') return REORG_REASON;
  // The replaced hash stays on the timeline: the payout's `txHash` follows the new one.
  if (move === 'bump') return `${req.replacement ?? 'fee bump'}: replaces ${locked.tx_hash}`;
  return null;
}
