import { Decimal, decimalText, jsonDecimal, parseAmount } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { Db } from '../../store/store.js';
import type { TransferTable } from './tables.js';
import { findFamily } from '../../chain-families/index.js';
import { evaluate, type EngineContext, type EvaluateResult } from './engine.js';

/** A transfer as an indexer (or simulate-payment) reports it: POST /admin/v1/transfers. */
export interface TransferReport {
  chain: string;
  txHash: string;
  index: number;
  toAddress: string;
  asset: string;
  amount: string;
  confirmations: number;
  blockTime?: string | undefined;
  blockHash?: string | undefined;
}

const TX_HASH = /^[A-Za-z0-9:_-]{1,128}$/;

/** How the chain's family spells an address for matching (EVM: EIP-55 is a checksum, not identity). */
function canonicalAddress(family: string, address: string): string {
  return findFamily(family)?.matchSpelling(address) ?? address;
}

export interface ReportOutcome {
  transfer: TransferTable;
  /** The first report of this chain + tx + index (false: a repeat, at most raising confirmations). */
  created: boolean;
  evaluation: EvaluateResult | null;
}

/**
 * Records a transfer and lets the checkout it paid react, in the caller's transaction. Idempotent
 * on chain + txHash + index: a repeat with the same details may only raise the confirmations (a
 * lower count is ignored), different details are 409. A transfer to no deposit address is kept
 * as `unmatched` for operators.
 */
export async function reportTransfer(trx: Db, input: TransferReport, ctx: EngineContext): Promise<ReportOutcome> {
  const { chain, asset, parsed, blockTime, toAddress, amount } = await checkedReport(trx, input);
  const existing = await trx
    .selectFrom('transfers')
    .selectAll()
    .where('chain_id', '=', chain.id)
    .where('tx_hash', '=', input.txHash)
    .where('log_index', '=', input.index)
    .executeTakeFirst();
  if (existing !== undefined)
    return repeatedReport(
      trx,
      existing,
      input,
      { asset: asset.symbol, assetId: asset.id, toAddress, amount: parsed.value },
      ctx,
    );

  const option = await trx
    .selectFrom('checkout_options as o')
    .innerJoin('checkouts as k', 'k.id', 'o.checkout_id')
    .select(['o.id', 'o.checkout_id', 'k.status'])
    .where('o.chain_id', '=', chain.id)
    .where('o.address', '=', toAddress)
    .executeTakeFirst();
  const row: TransferTable = {
    id: newId('trf'),
    chain_id: chain.id,
    tx_hash: input.txHash,
    log_index: input.index,
    to_address: toAddress,
    asset_id: asset.id,
    amount,
    confirmations: input.confirmations,
    block_time: blockTime,
    block_hash: input.blockHash ?? null,
    checkout_id: option?.checkout_id ?? null,
    option_id: option?.id ?? null,
    retracted: 0,
    exception:
      option === undefined
        ? 'unmatched'
        : option.status === 'settled' || option.status === 'invalid'
          ? 'extra_payment'
          : null,
    detected_at: ctx.at,
    updated_at: ctx.at,
  };
  // Two first reports racing (PostgreSQL): the unique key lets one in; the other waits for it and
  // then takes the repeat path above.
  const inserted = await trx
    .insertInto('transfers')
    .values(row)
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash', 'log_index']).doNothing())
    .executeTakeFirst();
  if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) return reportTransfer(trx, input, ctx);
  if (option === undefined) return { transfer: row, created: true, evaluation: null };
  const evaluation = await evaluate(trx, option.checkout_id, ctx);
  const exception = exceptionOf(evaluation);
  if (exception !== null && row.exception === null) {
    row.exception = exception;
    await trx.updateTable('transfers').set({ exception }).where('id', '=', row.id).execute();
  }
  return { transfer: row, created: true, evaluation };
}

/** A report's fields checked against the catalog and their formats, before anything is written. */
async function checkedReport(trx: Db, input: TransferReport) {
  const chain = await trx
    .selectFrom('chains')
    .selectAll()
    .where('symbol', '=', input.chain.toUpperCase())
    .executeTakeFirst();
  if (chain === undefined)
    throw new HostpayError('INVALID_BODY', `chain ${input.chain} is not in the catalog`, { field: 'chain' });
  const asset = await trx
    .selectFrom('assets')
    .selectAll()
    .where('symbol', '=', input.asset.toUpperCase())
    .executeTakeFirst();
  if (asset === undefined)
    throw new HostpayError('INVALID_BODY', `asset ${input.asset} is not in the catalog`, { field: 'asset' });
  if (!TX_HASH.test(input.txHash))
    throw new HostpayError('INVALID_BODY', 'txHash must be 1 to 128 letters, digits, or : _ -', { field: 'txHash' });
  if (!Number.isInteger(input.index) || input.index < 0 || input.index > 1_000_000_000)
    throw new HostpayError(
      'INVALID_BODY',
      'index must be a whole number from 0 (the output or log index in the transaction)',
      { field: 'index' },
    );
  if (!Number.isInteger(input.confirmations) || input.confirmations < 0 || input.confirmations > 1_000_000_000)
    throw new HostpayError('INVALID_BODY', 'confirmations must be a whole number from 0', { field: 'confirmations' });
  if (input.toAddress.length === 0 || input.toAddress.length > 128)
    throw new HostpayError('INVALID_BODY', 'toAddress must be 1 to 128 characters', { field: 'toAddress' });
  const parsed = parseAmount(input.amount);
  if (!parsed.ok)
    throw new HostpayError(
      'INVALID_AMOUNT',
      `amount ${JSON.stringify(input.amount)} ${parsed.reason}: send what the transfer moved, a positive decimal`,
      { field: 'amount' },
    );
  if (parsed.value.decimalPlaces() > asset.decimals)
    throw new HostpayError(
      'INVALID_AMOUNT',
      `${asset.symbol} has ${asset.decimals} decimal places; ${input.amount} has more`,
      { field: 'amount' },
    );
  let blockTime: string | null = null;
  if (input.blockTime !== undefined) {
    const ms = Date.parse(input.blockTime);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(input.blockTime) || Number.isNaN(ms))
      throw new HostpayError(
        'INVALID_BODY',
        'blockTime must be an ISO 8601 time with an offset, e.g. 2026-11-23T10:00:00Z',
        { field: 'blockTime' },
      );
    blockTime = new Date(ms).toISOString();
  }
  if (input.blockHash !== undefined && !TX_HASH.test(input.blockHash))
    throw new HostpayError('INVALID_BODY', 'blockHash must be 1 to 128 letters, digits, or : _ -', {
      field: 'blockHash',
    });
  const toAddress = canonicalAddress(chain.family, input.toAddress);
  const amount = decimalText(parsed.value);
  return { chain, asset, parsed, blockTime, toAddress, amount };
}

/**
 * A transfer reported again: the same details may only raise its confirmations (or revive it after
 * a reorganisation); other details are 409.
 */
async function repeatedReport(
  trx: Db,
  existing: TransferTable,
  input: TransferReport,
  seen: { asset: string; assetId: string; toAddress: string; amount: Decimal },
  ctx: EngineContext,
): Promise<ReportOutcome> {
  if (
    existing.to_address !== seen.toAddress ||
    existing.asset_id !== seen.assetId ||
    !new Decimal(existing.amount).equals(seen.amount)
  ) {
    throw new HostpayError(
      'IDEMPOTENCY_CONFLICT',
      `transfer ${input.chain}:${input.txHash}:${input.index} was reported before with another address, asset or amount (${existing.amount} ${seen.asset} to ${existing.to_address}); a transfer's details never change`,
      { transferId: existing.id },
    );
  }
  // A repeat raises confirmations only; a transfer retracted by a reorg and seen again is live
  // again, with the confirmations of the block it is in now (its old block's count no longer holds).
  const revived = existing.retracted === 1;
  const confirmations = revived ? input.confirmations : Math.max(existing.confirmations, input.confirmations);
  if (confirmations === existing.confirmations && !revived)
    return { transfer: existing, created: false, evaluation: null };
  const updated = {
    ...existing,
    confirmations,
    retracted: 0,
    block_hash: input.blockHash ?? existing.block_hash,
    updated_at: ctx.at,
  };
  await trx
    .updateTable('transfers')
    .set({ confirmations, retracted: 0, block_hash: updated.block_hash, updated_at: ctx.at })
    .where('id', '=', existing.id)
    .execute();
  const evaluation = existing.checkout_id === null ? null : await evaluate(trx, existing.checkout_id, ctx);
  return { transfer: updated, created: false, evaluation };
}

/** Why operators should look at a payment that moved its checkout into review. */
function exceptionOf(e: EvaluateResult): string | null {
  if (!e.moves.includes('needs_review')) return null;
  return e.checkout.row.reason === 'wrong_asset' || e.checkout.row.reason === 'paid_late'
    ? e.checkout.row.reason
    : null;
}

export async function retractTransfer(trx: Db, id: string, ctx: EngineContext): Promise<ReportOutcome> {
  const t = await trx.selectFrom('transfers').selectAll().where('id', '=', id).executeTakeFirst();
  if (t === undefined) throw new HostpayError('NOT_FOUND', `transfer ${id} does not exist`);
  if (t.retracted === 1) return { transfer: t, created: false, evaluation: null };
  await trx.updateTable('transfers').set({ retracted: 1, updated_at: ctx.at }).where('id', '=', id).execute();
  const evaluation = t.checkout_id === null ? null : await evaluate(trx, t.checkout_id, ctx);
  return { transfer: { ...t, retracted: 1, updated_at: ctx.at }, created: false, evaluation };
}

/** An unmatched transfer given to a checkout by an operator: matched to its option on that chain. */
export async function attachTransfer(
  trx: Db,
  id: string,
  checkoutId: string,
  ctx: EngineContext,
): Promise<ReportOutcome> {
  const t = await trx.selectFrom('transfers').selectAll().where('id', '=', id).executeTakeFirst();
  if (t === undefined) throw new HostpayError('NOT_FOUND', `transfer ${id} does not exist`);
  if (t.checkout_id !== null)
    throw new HostpayError('CHECKOUT_STATE_CONFLICT', `transfer ${id} already belongs to checkout ${t.checkout_id}`, {
      checkoutId: t.checkout_id,
    });
  const options = await trx
    .selectFrom('checkout_options')
    .selectAll()
    .where('checkout_id', '=', checkoutId)
    .where('chain_id', '=', t.chain_id)
    .orderBy('position')
    .execute();
  if (options.length === 0) {
    const exists = await trx.selectFrom('checkouts').select('id').where('id', '=', checkoutId).executeTakeFirst();
    if (exists === undefined) throw new HostpayError('NOT_FOUND', `checkout ${checkoutId} does not exist`);
    throw new HostpayError('INVALID_BODY', `checkout ${checkoutId} has no payment option on the transfer's chain`, {
      field: 'checkoutId',
    });
  }
  const option = options.find((o) => o.asset_id === t.asset_id) ?? options[0]!;
  await trx
    .updateTable('transfers')
    .set({ checkout_id: checkoutId, option_id: option.id, exception: null, updated_at: ctx.at })
    .where('id', '=', id)
    .execute();
  const evaluation = await evaluate(trx, checkoutId, ctx);
  return {
    transfer: { ...t, checkout_id: checkoutId, option_id: option.id, exception: null, updated_at: ctx.at },
    created: false,
    evaluation,
  };
}

export const transferView = (t: TransferTable, symbols: { chain: string; asset: string }) => ({
  id: t.id,
  chain: symbols.chain,
  txHash: t.tx_hash,
  index: t.log_index,
  toAddress: t.to_address,
  asset: symbols.asset,
  amount: jsonDecimal(decimalText(t.amount)),
  confirmations: t.confirmations,
  blockTime: t.block_time,
  blockHash: t.block_hash,
  checkoutId: t.checkout_id,
  matched: t.checkout_id !== null,
  retracted: t.retracted === 1,
  exception: t.exception,
  detectedAt: t.detected_at,
  updatedAt: t.updated_at,
});
