import { Decimal, decimalText, parseAmount, writeExactJson, type PayoutActor } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { PayoutTable } from './tables.js';
import type { Db } from '../../store/store.js';
import { takeEventCounter } from '../events/outbox.js';
import { checkPayoutAddress } from './address.js';
import { postForPayout, type MoveContext } from './moves.js';
import { appendPayoutTimeline, destinationStatus, findPayout, payoutView, type LoadedPayout } from './queries.js';
import { payoutTransition } from './states.js';

/** Where the address paid comes from. */
export type PayoutDestinationInput =
  /** The merchant's address book: by id, or by the address of one of its active destinations. */
  | { source: 'book'; destinationId?: string | undefined; address?: string | undefined }
  /** A payer's address (a refund link): checked per chain, skips the cooling-off, never auto-approved past the limit. */
  | { source: 'payer'; address: string };

export interface PayoutRequestInput {
  merchantId: string;
  walletId: string;
  /** What the destination receives, in the wallet's asset (decimal text). */
  amount: string;
  destination: PayoutDestinationInput;
  reference?: string | null | undefined;
  /** The checkout this payout refunds (chk_…), or null. */
  refundOf?: string | null | undefined;
  /** Who asked: the merchant (API), or the system (a payer's refund link). */
  by: PayoutActor;
  /** The payout's id when the caller named it first (a refund credits money under it before the request). */
  id?: string | undefined;
}

const ROLLING_WINDOW_MS = 24 * 3600 * 1000;
/** Statuses whose total still counts against the rolling limit (money left or may leave). */
const COUNTED = ['pending_approval', 'approved', 'sent', 'completed'] as const;

/**
 * Creates a payout inside the caller's write transaction (spec/payouts.md): checks the wallet,
 * amount, destination and limits, freezes `total` (422 INSUFFICIENT_FUNDS unless
 * amount − freezeAmount ≥ total), writes the payout with its first timeline entry, its events
 * (`payout.requested`, `payout.approved` when auto-approved) and the freeze's
 * `wallet.balance_changed`. Any refusal throws, and the caller's transaction then leaves nothing
 * frozen. Refunds call this with `refundOf` after their own checks, in their own transaction.
 */
export async function requestPayout(trx: Db, ctx: MoveContext, input: PayoutRequestInput): Promise<LoadedPayout> {
  const parsed = parseAmount(input.amount);
  if (!parsed.ok) throw new HostpayError('INVALID_AMOUNT', `amount ${JSON.stringify(input.amount)} ${parsed.reason}`);
  const amount = parsed.value;
  if (amount.lte(0)) throw new HostpayError('INVALID_AMOUNT', 'amount must be positive');
  if (input.reference !== undefined && input.reference !== null && input.reference.length > 64)
    throw new HostpayError('INVALID_BODY', 'reference must be at most 64 characters');

  const wallet = await trx
    .selectFrom('wallets as w')
    .innerJoin('assets as a', 'a.id', 'w.asset_id')
    .innerJoin('chains as c', 'c.id', 'w.chain_id')
    .select([
      'w.id',
      'w.merchant_id',
      'w.asset_id',
      'w.chain_id',
      'w.active',
      'a.symbol as asset_symbol',
      'a.decimals',
      'c.symbol',
      'c.family',
      'c.network_type',
    ])
    .where('w.id', '=', input.walletId)
    .executeTakeFirst();
  if (wallet === undefined || wallet.merchant_id !== input.merchantId)
    throw new HostpayError('NOT_FOUND', `wallet ${input.walletId} does not exist`);
  // An operator deactivates a wallet to stop its use: no money leaves it, payout or refund.
  if (Number(wallet.active) !== 1)
    throw new HostpayError(
      'WALLET_INACTIVE',
      `wallet ${wallet.id} (${wallet.asset_symbol} on ${wallet.symbol}) is deactivated: nothing is paid out of it until an operator activates it again`,
      { walletId: wallet.id },
    );
  if (amount.decimalPlaces() > wallet.decimals)
    throw new HostpayError('INVALID_AMOUNT', `${wallet.asset_symbol} has ${wallet.decimals} decimal places`);
  const network = await trx
    .selectFrom('networks')
    .select(['id'])
    .where('asset_id', '=', wallet.asset_id)
    .where('chain_id', '=', wallet.chain_id)
    .executeTakeFirst();
  if (network === undefined)
    throw new HostpayError('NOT_FOUND', `${wallet.asset_symbol} has no network on ${wallet.symbol}`);

  // The destination: the address book's (active only), or a payer's, checked per chain.
  let address: string;
  let destinationId: string | null = null;
  let active: boolean;
  if (input.destination.source === 'payer') {
    address = checkPayoutAddress(wallet, input.destination.address);
    active = true;
  } else {
    const { destinationId: wanted, address: given } = input.destination;
    if ((wanted === undefined) === (given === undefined))
      throw new HostpayError(
        'INVALID_BODY',
        'give destinationId or destination (the address of an active destination)',
      );
    let q = trx.selectFrom('payout_destinations').selectAll().where('merchant_id', '=', input.merchantId);
    if (wanted !== undefined) q = q.where('id', '=', wanted);
    else q = q.where('address', '=', checkPayoutAddress(wallet, given!)).where('chain_id', '=', wallet.chain_id);
    // The live entry first, an active one before one still cooling off (a book written before
    // adding became idempotent may hold both); a revoked one of this merchant is then named as
    // such (422), while another merchant's id or address stays 404: the query is scoped to it.
    const live = await q.where('status', '!=', 'revoked').orderBy('created_at', 'desc').execute();
    const found =
      live.find((d) => destinationStatus(d, ctx.at) === 'active') ??
      live[0] ??
      (await q.orderBy('created_at', 'desc').executeTakeFirst());
    if (found?.status === 'revoked')
      throw new HostpayError(
        'DESTINATION_NOT_ACTIVE',
        `payout destination ${found.id} was revoked: add the address again (POST /api/v1/cp/payout-destinations)`,
        { destinationId: found.id, status: 'revoked' },
      );
    if (found === undefined)
      throw new HostpayError(
        'NOT_FOUND',
        wanted !== undefined
          ? `payout destination ${wanted} does not exist`
          : `${given} is not in your payout address book on ${wallet.symbol}: add it first (POST /api/v1/cp/payout-destinations)`,
      );
    const status = destinationStatus(found, ctx.at);
    if (found.chain_id !== wallet.chain_id)
      throw new HostpayError('DESTINATION_NOT_ACTIVE', `payout destination ${found.id} is not on ${wallet.symbol}`);
    if (status !== 'active')
      throw new HostpayError(
        'DESTINATION_NOT_ACTIVE',
        `payout destination ${found.id} is ${status} until ${found.active_from}; an operator can activate it sooner`,
        { destinationId: found.id, status, activeFrom: found.active_from },
      );
    // Checked again as at entry: a burn address stored before it was refused is not paid.
    address = checkPayoutAddress(wallet, found.address);
    destinationId = found.id;
    active = true;
  }

  const fee = await trx
    .selectFrom('payout_network_fees')
    .select('fee')
    .where('chain_id', '=', wallet.chain_id)
    .where('asset_id', '=', wallet.asset_id)
    .executeTakeFirst();
  const networkFee = new Decimal(fee?.fee ?? '0');
  const total = amount.plus(networkFee);

  // Lock order (states.ts): the event counter first. Its row is made to exist, so the lock is
  // real even for a merchant without events yet: one request per merchant at a time from here.
  await takeEventCounter(trx, input.merchantId, ctx.dialect);

  const merchant = await trx
    .selectFrom('merchants')
    .select(['payout_auto_approve_limit', 'payout_daily_limit'])
    .where('id', '=', input.merchantId)
    .executeTakeFirstOrThrow();
  const limit = (JSON.parse(merchant.payout_daily_limit) as Record<string, string>)[wallet.asset_symbol];
  if (limit !== undefined) {
    const since = new Date(Date.parse(ctx.at) - ROLLING_WINDOW_MS).toISOString();
    const rows = await trx
      .selectFrom('payouts')
      .select('total')
      .where('merchant_id', '=', input.merchantId)
      .where('asset_id', '=', wallet.asset_id)
      .where('status', 'in', [...COUNTED])
      .where('created_at', '>', since)
      .execute();
    const used = rows.reduce((sum, r) => sum.plus(r.total), new Decimal(0));
    if (used.plus(total).gt(limit))
      throw new HostpayError(
        'PAYOUT_LIMIT',
        `this payout (${decimalText(total)} ${wallet.asset_symbol}) would take the last 24 h of payouts to ${decimalText(used.plus(total))}, over the limit of ${decimalText(limit)}`,
        { asset: wallet.asset_symbol, limit: decimalText(limit), used: decimalText(used) },
      );
  }

  const autoApproved = active && total.lte(merchant.payout_auto_approve_limit);
  const row = payoutTransition(null, autoApproved ? 'request_approved' : 'request', input.by);
  if (row === undefined) throw new HostpayError('PAYOUT_STATE_CONFLICT', `a ${input.by} cannot request a payout`);
  const id = input.id ?? newId('po');
  const payout: PayoutTable = {
    id,
    merchant_id: input.merchantId,
    wallet_id: wallet.id,
    asset_id: wallet.asset_id,
    chain_id: wallet.chain_id,
    network_id: network.id,
    status: row.to,
    reason: null,
    amount: decimalText(amount),
    network_fee: decimalText(networkFee),
    total: decimalText(total),
    frozen: decimalText(total),
    destination: address,
    destination_id: destinationId,
    destination_source: input.destination.source,
    reference: input.reference ?? null,
    refund_of: input.refundOf ?? null,
    tx_hash: null,
    confirmations: 0,
    created_at: ctx.at,
    updated_at: ctx.at,
  };
  await trx.insertInto('payouts').values(payout).execute();
  // The freeze refuses (422 INSUFFICIENT_FUNDS) unless amount − freezeAmount ≥ total; the caller's
  // transaction then rolls the payout back with it.
  await postForPayout(
    trx,
    ctx,
    { merchantId: input.merchantId, walletId: wallet.id, payoutId: id },
    'freeze',
    total,
    'freeze',
  );
  await appendPayoutTimeline(trx, id, 0, { status: row.to, reason: null, by: input.by, at: ctx.at });
  const loaded = (await findPayout(trx, id))!;
  const json = writeExactJson(payoutView(loaded));
  for (const type of row.events) await ctx.outbox.append(trx, input.merchantId, type, json, ctx.at);
  return loaded;
}
