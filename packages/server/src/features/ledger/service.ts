import { Decimal, decimalText, jsonDecimal, parseAmount, writeExactJson } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { Db, Store } from '../../store/store.js';
import { findPostingByKey, insertPosting, type PostingRow } from './queries.js';
import { lockWallet, updateBalances } from '../wallets/queries.js';
import type { LedgerPostingTable, PostingKind } from './tables.js';
import { required, type AdminDeps } from '../../admin/deps.js';
import { page, type PageRequest } from '../../admin/pagination.js';
import type { Caches } from '../../cache/caches.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { lockEventCounter, type Outbox } from '../events/outbox.js';
import { keyedQueue } from './wallet-queue.js';
import { isStoreUnavailable } from '../../store/unavailable.js';

export interface PostingRequest {
  walletId: string;
  kind: PostingKind;
  amount: string;
  /** Same key and same posting: the first result is returned, nothing is applied twice. */
  idempotencyKey?: string | undefined;
}

export interface PostingResult {
  posting: PostingRow;
  replayed: boolean;
}

export const POSTING_KINDS: readonly PostingKind[] = ['credit', 'debit', 'freeze', 'unfreeze'];

/** Balance after a posting, or the sentence that explains why it would break the invariant. */
function apply(kind: PostingKind, amount: Decimal, balance: Decimal, frozen: Decimal): [Decimal, Decimal] | string {
  const available = balance.minus(frozen);
  switch (kind) {
    case 'credit':
      return [balance.plus(amount), frozen];
    case 'debit':
      return amount.gt(available)
        ? `debit of ${amount.toFixed()} exceeds the available balance ${available.toFixed()} (balance ${balance.toFixed()}, frozen ${frozen.toFixed()})`
        : [balance.minus(amount), frozen];
    case 'freeze':
      return amount.gt(available)
        ? `freeze of ${amount.toFixed()} exceeds the available balance ${available.toFixed()} (balance ${balance.toFixed()}, frozen ${frozen.toFixed()})`
        : [balance, frozen.plus(amount)];
    case 'unfreeze':
      return amount.gt(frozen)
        ? `unfreeze of ${amount.toFixed()} exceeds the frozen amount ${frozen.toFixed()}`
        : [balance, frozen.minus(amount)];
  }
}

/**
 * Balances change only here. Each posting runs in a write transaction: read the wallet, check
 * `0 <= freezeAmount <= amount` after the change, write the posting and the new balances
 * together — or write nothing.
 */
export async function postToLedger(
  store: Store,
  caches: Caches,
  outbox: Outbox,
  req: PostingRequest,
  ctx: AuditContext,
): Promise<PostingResult> {
  if (!POSTING_KINDS.includes(req.kind)) {
    throw new HostpayError('INVALID_BODY', `posting kind must be one of ${POSTING_KINDS.join(', ')}`);
  }
  const parsed = parseAmount(req.amount);
  if (!parsed.ok) throw new HostpayError('INVALID_AMOUNT', `amount ${JSON.stringify(req.amount)} ${parsed.reason}`);
  const key = req.idempotencyKey ?? newId('idem', 24);
  if (key.length > 128) throw new HostpayError('INVALID_QUERY', 'idempotency key must be at most 128 characters');

  const result = await store.writeTransaction(async (trx) => {
    // Lock order (features/checkouts/states.ts): the merchant's event counter, then the wallet.
    const owner = await trx
      .selectFrom('wallets')
      .select('merchant_id')
      .where('id', '=', req.walletId)
      .executeTakeFirst();
    if (owner !== undefined) await lockEventCounter(trx, owner.merchant_id, store.dialect);
    const wallet = await lockWallet(trx, req.walletId, store.dialect);
    if (!wallet) throw new HostpayError('NOT_FOUND', `wallet ${req.walletId} does not exist`);
    const asset = await trx
      .selectFrom('assets')
      .select(['symbol', 'decimals'])
      .where('id', '=', wallet.asset_id)
      .executeTakeFirstOrThrow();
    if (parsed.value.decimalPlaces() > asset.decimals) {
      throw new HostpayError(
        'INVALID_AMOUNT',
        `${asset.symbol} has ${asset.decimals} decimal places; ${req.amount} has more`,
      );
    }
    const previous = await findPostingByKey(trx, wallet.id, key);
    if (previous) {
      if (previous.kind === req.kind && new Decimal(previous.amount).equals(parsed.value))
        return { posting: previous, replayed: true, merchantId: wallet.merchant_id };
      throw new HostpayError(
        'IDEMPOTENCY_CONFLICT',
        `idempotency key ${key} was already used for a ${previous.kind} of ${previous.amount} on this wallet; use a new key for a different posting`,
      );
    }
    const next = apply(req.kind, parsed.value, new Decimal(wallet.amount), new Decimal(wallet.freeze_amount));
    if (typeof next === 'string') throw new HostpayError('INSUFFICIENT_FUNDS', next, { walletId: wallet.id });
    // Strictly after the wallet's last change (the row is locked): a wallet's postings sort in the
    // order they were applied even when two instances post within the same millisecond.
    const at = new Date(Math.max(Date.now(), Date.parse(wallet.updated_at) + 1)).toISOString();
    const posting: PostingRow = {
      id: newId('pst'),
      wallet_id: wallet.id,
      kind: req.kind,
      amount: decimalText(parsed.value),
      idempotency_key: key,
      amount_after: decimalText(next[0]),
      freeze_amount_after: decimalText(next[1]),
      created_at: at,
    };
    await insertPosting(trx, posting);
    await updateBalances(trx, wallet.id, posting.amount_after, posting.freeze_amount_after, at);
    // The merchant hears of every balance change, in the transaction that makes it (outbox).
    await outbox.append(trx, wallet.merchant_id, 'wallet.balance_changed', balanceChangedJson(wallet.id, posting), at);
    await recordAudit(trx, ctx, {
      action: `wallet.${req.kind}`,
      objectType: 'wallet',
      objectId: wallet.id,
      before: { amount: wallet.amount, freezeAmount: wallet.freeze_amount },
      after: {
        amount: posting.amount_after,
        freezeAmount: posting.freeze_amount_after,
        postingId: posting.id,
        idempotencyKey: key,
      },
    });
    return { posting, replayed: false, merchantId: wallet.merchant_id };
  });
  if (!result.replayed) await caches.invalidate({ kind: 'wallets', merchantId: result.merchantId });
  return { posting: result.posting, replayed: result.replayed };
}

/** `data.object` of a `wallet.balance_changed` event: the posting and the balances after it. */
export function balanceChangedJson(
  walletId: string,
  p: PostingRow,
  extra: { checkoutId?: string; payoutId?: string } = {},
): string {
  const num = (text: string) => jsonDecimal(decimalText(text));
  return writeExactJson({
    walletId,
    postingId: p.id,
    kind: p.kind,
    amount: num(p.amount),
    balance: num(p.amount_after),
    freezeAmount: num(p.freeze_amount_after),
    ...extra,
  });
}

export const postingView = (p: LedgerPostingTable) => ({
  id: p.id,
  walletId: p.wallet_id,
  kind: p.kind,
  amount: jsonDecimal(decimalText(p.amount)),
  idempotencyKey: p.idempotency_key,
  amountAfter: jsonDecimal(decimalText(p.amount_after)),
  freezeAmountAfter: jsonDecimal(decimalText(p.freeze_amount_after)),
  createdAt: p.created_at,
});

/** The ledger as the admin API uses it: post to a wallet, read its postings. */
export function ledgerAdmin({ store, caches, outbox }: AdminDeps & { outbox: Outbox }) {
  const db = store.db;
  const inLine = store.dialect === 'postgres' ? keyedQueue(isStoreUnavailable) : undefined;
  return {
    post: (req: PostingRequest, ctx: AuditContext) =>
      inLine === undefined
        ? postToLedger(store, caches, outbox, req, ctx)
        : inLine(req.walletId, () => postToLedger(store, caches, outbox, req, ctx)),

    async listPostings(walletId: string, req: PageRequest) {
      await required(
        db.selectFrom('wallets').select('id').where('id', '=', walletId).executeTakeFirst(),
        `wallet ${walletId}`,
      );
      return page(
        db.selectFrom('ledger_postings').selectAll().where('wallet_id', '=', walletId),
        'created_at',
        req,
        postingView,
      );
    },
  };
}

export type LedgerAdmin = ReturnType<typeof ledgerAdmin>;

/**
 * Credits the merchant's wallet for an asset on a chain inside the caller's transaction (checkout
 * settlement), creating the wallet when it is missing. The posting's idempotency key makes a
 * second credit for the same reason impossible (unique per wallet). Returns the posting and the
 * wallet, so the caller can report the balance change; the caller invalidates the wallet caches
 * once the transaction has committed.
 */
export async function creditInTransaction(
  trx: Db,
  dialect: 'sqlite' | 'postgres',
  req: { merchantId: string; assetId: string; chainId: string; amount: Decimal; idempotencyKey: string; at: string },
): Promise<{ posting: PostingRow; walletId: string; replayed: boolean }> {
  const find = () =>
    trx
      .selectFrom('wallets')
      .select('id')
      .where('merchant_id', '=', req.merchantId)
      .where('asset_id', '=', req.assetId)
      .where('chain_id', '=', req.chainId)
      .executeTakeFirst();
  let found = await find();
  if (found === undefined) {
    // A concurrent settlement of another checkout may create it first: the unique constraint
    // decides, and both then post to the one wallet.
    await trx
      .insertInto('wallets')
      .values({
        id: newId('wal'),
        merchant_id: req.merchantId,
        asset_id: req.assetId,
        chain_id: req.chainId,
        active: 1,
        amount: '0',
        freeze_amount: '0',
        created_at: req.at,
        updated_at: req.at,
      })
      .onConflict((oc) => oc.columns(['merchant_id', 'asset_id', 'chain_id']).doNothing())
      .execute();
    found = await find();
  }
  const wallet = await lockWallet(trx, found!.id, dialect);
  if (!wallet) throw new Error('wallet vanished inside its transaction');
  const previous = await findPostingByKey(trx, wallet.id, req.idempotencyKey);
  if (previous) return { posting: previous, walletId: wallet.id, replayed: true };
  const next = apply('credit', req.amount, new Decimal(wallet.amount), new Decimal(wallet.freeze_amount)) as [
    Decimal,
    Decimal,
  ];
  const at = new Date(Math.max(Date.parse(req.at), Date.parse(wallet.updated_at) + 1)).toISOString();
  const posting: PostingRow = {
    id: newId('pst'),
    wallet_id: wallet.id,
    kind: 'credit',
    amount: decimalText(req.amount),
    idempotency_key: req.idempotencyKey,
    amount_after: decimalText(next[0]),
    freeze_amount_after: decimalText(next[1]),
    created_at: at,
  };
  await insertPosting(trx, posting);
  await updateBalances(trx, wallet.id, posting.amount_after, posting.freeze_amount_after, at);
  return { posting, walletId: wallet.id, replayed: false };
}

/**
 * Freezes, unfreezes or debits a wallet inside the caller's transaction (payouts): the same rule
 * as every posting (`0 ≤ freezeAmount ≤ amount` after it, else 422 INSUFFICIENT_FUNDS and the
 * caller's transaction rolls back), the same idempotency key per wallet. The caller holds the
 * lock order (features/checkouts/states.ts): its own row, then the merchant's event counter
 * (`lockEventCounter`), then this wallet; it writes the `wallet.balance_changed` event and drops
 * the wallet caches after commit.
 */
export async function postInTransaction(
  trx: Db,
  dialect: 'sqlite' | 'postgres',
  req: { walletId: string; kind: PostingKind; amount: Decimal; idempotencyKey: string; at: string },
): Promise<{ posting: PostingRow; replayed: boolean }> {
  const wallet = await lockWallet(trx, req.walletId, dialect);
  if (!wallet) throw new HostpayError('NOT_FOUND', `wallet ${req.walletId} does not exist`);
  const previous = await findPostingByKey(trx, wallet.id, req.idempotencyKey);
  if (previous) return { posting: previous, replayed: true };
  const next = apply(req.kind, req.amount, new Decimal(wallet.amount), new Decimal(wallet.freeze_amount));
  if (typeof next === 'string') throw new HostpayError('INSUFFICIENT_FUNDS', next, { walletId: wallet.id });
  const at = new Date(Math.max(Date.parse(req.at), Date.parse(wallet.updated_at) + 1)).toISOString();
  const posting: PostingRow = {
    id: newId('pst'),
    wallet_id: wallet.id,
    kind: req.kind,
    amount: decimalText(req.amount),
    idempotency_key: req.idempotencyKey,
    amount_after: decimalText(next[0]),
    freeze_amount_after: decimalText(next[1]),
    created_at: at,
  };
  await insertPosting(trx, posting);
  await updateBalances(trx, wallet.id, posting.amount_after, posting.freeze_amount_after, at);
  return { posting, replayed: false };
}
