import { Decimal, decimalText, jsonDecimal, parseAmount } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import type { feeService } from '../fees/preview.js';
import { rateStaleError, staleness } from '../fees/stale.js';
import type { OperatorSettlement } from './engine.js';
import type { LoadedCheckout } from './queries.js';

/**
 * What an operator's settle of a checkout in review would credit, worked out once for both the
 * settle itself and its preview (`GET /admin/v1/checkouts/{id}/settle-preview`), so the figures
 * an operator confirms are the figures the settle posts.
 */
export interface SettlementQuote {
  settlement: OperatorSettlement;
  /** What arrived in the chosen asset and chain (live payments only). */
  received: { asset: string; chain: string; amount: Decimal };
  /** Every asset/chain that received live payments, `ASSET/CHAIN` (several: the operator picks one). */
  groups: string[];
  /** The value received in the checkout's currency, at the rate used. */
  value: { amount: Decimal; currency: string; rate: Decimal; rateSource: 'locked' | 'current' };
  /** The fee for that value: as the fee preview quotes it, and in the asset received. */
  fee: { quoted: Decimal; currency: string; inAsset: Decimal };
  /** What completed refunds of it already credited and paid out in that asset and chain (refundsTaken). */
  refunded: Decimal;
}

type Fees = ReturnType<typeof feeService>;

/** Refunds that may still move: a settle waits for them (their credit could yet be taken back). */
const OPEN_REFUND_STATUSES = ['pending_approval', 'approved', 'sent'] as const;

/**
 * What refunds of a checkout in review already took of its money, in one asset and chain: a
 * refund of an uncredited checkout credited its total to the wallet when it was requested (the
 * same amount it froze, posting `payout:<id>:freeze`), so that part of what the checkout received
 * is already in (and out of) the wallet. Completed refunds count; rejected, canceled and failed
 * ones gave their credit back. A refund still open refuses the settle (409): whether it will take
 * its money is not known yet. Read inside the settle's transaction, after the checkout's lock,
 * which a refund takes first as well.
 */
export async function refundsTaken(
  db: Db,
  c: LoadedCheckout,
  where: { assetId: string; chainId: string },
): Promise<Decimal> {
  const refunds = await db
    .selectFrom('payouts')
    .select(['id', 'status', 'asset_id', 'chain_id'])
    .where('refund_of', '=', c.row.id)
    .execute();
  const open = refunds.filter((r) => (OPEN_REFUND_STATUSES as readonly string[]).includes(r.status));
  if (open.length > 0)
    throw new HostpayError(
      'CHECKOUT_STATE_CONFLICT',
      `checkout ${c.row.id} has refunds still open (${open.map((r) => `${r.id} ${r.status}`).join(', ')}): settle it once they are completed, rejected, canceled or failed`,
      { status: c.row.status, refunds: open.map((r) => r.id) },
    );
  const done = refunds.filter(
    (r) => r.status === 'completed' && r.asset_id === where.assetId && r.chain_id === where.chainId,
  );
  if (done.length === 0) return new Decimal(0);
  const credits = await db
    .selectFrom('ledger_postings')
    .select('amount')
    .where(
      'idempotency_key',
      'in',
      done.map((r) => `payout:${r.id}:freeze`),
    )
    .execute();
  return credits.reduce((sum, p) => sum.plus(String(p.amount)), new Decimal(0));
}

/** The value received, minus the fee for that value, in the asset received (spec/checkout.md, "States"). */
export async function settlementQuote(
  db: Db,
  fees: Fees,
  c: LoadedCheckout,
  req: { asset?: string | undefined; chain?: string | undefined },
  /** The clock today's rates are judged by: a rate past its maximum age is not used (RATE_STALE). */
  nowMs: number,
): Promise<SettlementQuote> {
  const live = c.transfers.filter((t) => t.retracted === 0);
  const groups = new Map<string, { assetId: string; chainId: string; asset: string; chain: string; amount: Decimal }>();
  for (const t of live) {
    const k = `${t.asset_symbol}/${t.chain_symbol}`;
    const g = groups.get(k) ?? {
      assetId: t.asset_id,
      chainId: t.chain_id,
      asset: t.asset_symbol,
      chain: t.chain_symbol,
      amount: new Decimal(0),
    };
    g.amount = g.amount.plus(t.amount);
    groups.set(k, g);
  }
  const wanted =
    req.asset !== undefined && req.chain !== undefined
      ? `${req.asset.toUpperCase()}/${req.chain.toUpperCase()}`
      : undefined;
  const g = wanted !== undefined ? groups.get(wanted) : groups.size === 1 ? [...groups.values()][0] : undefined;
  if (g === undefined) {
    throw new HostpayError(
      'INVALID_BODY',
      groups.size === 0
        ? `checkout ${c.row.id} has received nothing to settle: reject it instead`
        : `name the payments to credit with asset and chain: ${[...groups.keys()].join(', ')}`,
      { received: [...groups.keys()] },
    );
  }
  // The locked rate when the asset was offered on that chain, else today's operator rate.
  const option = c.options.find((o) => o.asset_id === g.assetId && o.chain_id === g.chainId);
  const today = option ? null : await fees.rateOf(c.row.currency, g.asset);
  const rate = option ? new Decimal(option.rate) : (today?.rate ?? null);
  if (rate === null)
    throw new HostpayError(
      'NO_RATE',
      `no ${c.row.currency}/${g.asset} rate is configured, so the ${g.asset} received cannot be valued: set the rate, or reject the checkout`,
      { base: c.row.currency, quote: g.asset },
    );
  const staleRate = today && staleness(c.row.currency, g.asset, today, nowMs);
  if (staleRate) throw rateStaleError(`the ${g.asset} received cannot be valued`, [staleRate]);
  const asset = await db.selectFrom('assets').select('decimals').where('id', '=', g.assetId).executeTakeFirstOrThrow();
  const value = g.amount.dividedBy(rate).toDecimalPlaces(18, Decimal.ROUND_DOWN);
  const parsed = parseAmount(decimalText(value));
  if (!parsed.ok)
    throw new HostpayError(
      'INVALID_AMOUNT',
      `the value received (${decimalText(value)} ${c.row.currency}) cannot be charged a fee: ${parsed.reason}`,
    );
  const quote = await fees.preview(c.row.merchant_id, parsed.value, c.row.currency, nowMs);
  const feeQuote = await fees.rateOf(quote.currency, g.asset);
  const feeRate = feeQuote?.rate ?? null;
  if (feeRate === null)
    throw new HostpayError(
      'NO_RATE',
      `no ${quote.currency}/${g.asset} rate is configured for the fee: set it, or reject the checkout`,
      { base: quote.currency, quote: g.asset },
    );
  const staleFee = feeQuote && staleness(quote.currency, g.asset, feeQuote, nowMs);
  if (staleFee) throw rateStaleError(`the fee cannot be converted into ${g.asset}`, [staleFee]);
  const quoted = new Decimal(String(quote.fee));
  const fee = quoted.times(feeRate).toDecimalPlaces(asset.decimals, Decimal.ROUND_HALF_UP);
  const refunded = await refundsTaken(db, c, g);
  return {
    settlement: {
      assetId: g.assetId,
      chainId: g.chainId,
      amount: Decimal.max(g.amount.minus(fee).minus(refunded), 0),
    },
    received: { asset: g.asset, chain: g.chain, amount: g.amount },
    groups: [...groups.keys()],
    refunded,
    value: { amount: value, currency: c.row.currency, rate, rateSource: option ? 'locked' : 'current' },
    fee: { quoted, currency: quote.currency, inAsset: fee },
  };
}

const num = (d: Decimal) => jsonDecimal(decimalText(d));

/**
 * The preview an operator confirms before a settle: who is credited, what arrived, the fee, what
 * will be credited and into which wallet (and whether that wallet is inactive or will be created).
 */
export async function settlePreview(db: Db, c: LoadedCheckout, q: SettlementQuote) {
  const [merchant, wallet] = await Promise.all([
    db
      .selectFrom('merchants')
      .select(['id', 'name', 'status'])
      .where('id', '=', c.row.merchant_id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('wallets')
      .select(['id', 'active', 'amount'])
      .where('merchant_id', '=', c.row.merchant_id)
      .where('asset_id', '=', q.settlement.assetId)
      .where('chain_id', '=', q.settlement.chainId)
      .executeTakeFirst(),
  ]);
  return {
    checkoutId: c.row.id,
    status: c.row.status,
    reason: c.row.reason,
    merchant: { id: merchant.id, name: merchant.name, status: merchant.status },
    received: { asset: q.received.asset, chain: q.received.chain, amount: num(q.received.amount) },
    receivedIn: q.groups,
    value: {
      amount: num(q.value.amount),
      currency: q.value.currency,
      rate: num(q.value.rate),
      rateSource: q.value.rateSource,
    },
    fee: { amount: num(q.fee.inAsset), asset: q.received.asset, quoted: num(q.fee.quoted), currency: q.fee.currency },
    credit: { amount: num(q.settlement.amount), asset: q.received.asset, chain: q.received.chain },
    wallet:
      wallet === undefined
        ? { id: null, exists: false, active: true, balance: null }
        : { id: wallet.id, exists: true, active: wallet.active === 1, balance: num(new Decimal(wallet.amount)) },
  };
}

/** Checkout views for operators: each with the merchant it belongs to (`merchant: {id, name}`). */
export async function withMerchants<V extends object>(
  db: Db,
  loaded: LoadedCheckout[],
  view: (c: LoadedCheckout) => V,
): Promise<(V & { merchant: { id: string; name: string } })[]> {
  const ids = [...new Set(loaded.map((c) => c.row.merchant_id))];
  const names =
    ids.length === 0
      ? new Map<string, string>()
      : new Map(
          (await db.selectFrom('merchants').select(['id', 'name']).where('id', 'in', ids).execute()).map((m) => [
            m.id,
            m.name,
          ]),
        );
  return loaded.map((c) => ({
    ...view(c),
    merchant: { id: c.row.merchant_id, name: names.get(c.row.merchant_id) ?? c.row.merchant_id },
  }));
}
