import { Decimal, decimalText, parseExactJson, type ReportRow } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import { groupBy, keysetRows, pageOf, ReportRecord, type Page, type PageRequest } from './page.js';

async function settledTimes(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('checkout_timeline')
    .select(['checkout_id', 'at'])
    .where('checkout_id', 'in', ids)
    .where('status', '=', 'settled')
    .orderBy('checkout_id')
    .orderBy('seq')
    .execute();
  const out = new Map<string, string>();
  for (const r of rows) if (!out.has(r.checkout_id)) out.set(r.checkout_id, r.at);
  return out;
}

/** The checkouts report: one row per checkout created in the range. */
export async function checkoutsPage(req: PageRequest): Promise<Page> {
  const { db } = req;
  let q = db
    .selectFrom('checkouts as c')
    .leftJoin('ledger_postings as p', 'p.id', 'c.credited_posting_id')
    .leftJoin('wallets as w', 'w.id', 'p.wallet_id')
    .leftJoin('assets as wa', 'wa.id', 'w.asset_id')
    .leftJoin('chains as wc', 'wc.id', 'w.chain_id')
    .select([
      'c.id',
      'c.created_at',
      'c.status',
      'c.reason',
      'c.order_id',
      'c.payment_link_id',
      'c.invoice_id',
      'c.customer_email',
      'c.currency',
      'c.amount',
      'c.settled_option_id',
      'p.amount as net',
      'wa.symbol as wallet_asset',
      'wc.symbol as wallet_chain',
    ]);
  if (req.merchantId !== null) q = q.where('c.merchant_id', '=', req.merchantId);
  const rows = await keysetRows(q, req, 'c.created_at', 'c.id');
  const ids = rows.map((r) => r.id);
  const [options, transfers, settled] = await Promise.all([
    optionsOf(db, ids),
    ids.length === 0
      ? []
      : db
          .selectFrom('transfers')
          .select(['checkout_id', 'option_id', 'amount'])
          .where('checkout_id', 'in', ids)
          .where('retracted', '=', 0)
          .execute(),
    settledTimes(db, ids),
  ]);
  const received = new Map<string, Decimal>();
  for (const t of transfers) {
    if (t.option_id === null) continue;
    received.set(t.option_id, (received.get(t.option_id) ?? new Decimal(0)).plus(t.amount));
  }
  const byCheckout = groupBy(options, (o) => o.checkout_id);
  const out: ReportRow[] = rows.map((c) => {
    const opts = byCheckout.get(c.id) ?? [];
    // The option that settled, else the one that received the most (an underpaid checkout's), else none.
    const option =
      opts.find((o) => o.id === c.settled_option_id) ??
      opts.filter((o) => received.has(o.id)).sort((a, b) => received.get(b.id)!.comparedTo(received.get(a.id)!))[0];
    const credited = c.net !== null;
    return new ReportRecord({
      id: c.id,
      createdAt: c.created_at,
      status: c.status,
      reason: c.reason,
      orderId: c.order_id,
      paymentLinkId: c.payment_link_id,
      invoiceId: c.invoice_id,
      currency: c.currency,
      amount: c.amount,
      settledAt: settled.get(c.id) ?? null,
      asset: option?.asset ?? c.wallet_asset ?? null,
      chain: option?.chain ?? c.wallet_chain ?? null,
      received: option === undefined ? null : decimalText(received.get(option.id) ?? new Decimal(0)),
      rate: option?.rate ?? null,
      fee: credited && option !== undefined && option.id === c.settled_option_id ? option.fee_in_asset : null,
      net: c.net,
      customerEmail: c.customer_email,
    });
  });
  return pageOf(
    rows,
    out,
    (r) => r.created_at,
    (r) => r.id,
  );
}

interface OptionInfo {
  id: string;
  checkout_id: string;
  asset: string;
  chain: string;
  rate: string;
  fee_in_asset: string;
}

function optionsOf(db: Db, ids: string[]): Promise<OptionInfo[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('checkout_options as o')
    .innerJoin('assets as a', 'a.id', 'o.asset_id')
    .innerJoin('chains as ch', 'ch.id', 'o.chain_id')
    .select(['o.id', 'o.checkout_id', 'a.symbol as asset', 'ch.symbol as chain', 'o.rate', 'o.fee_in_asset'])
    .where('o.checkout_id', 'in', ids)
    .orderBy('o.checkout_id')
    .orderBy('o.position')
    .execute();
}

/** Decimal places of currencies (fiat and crypto alike are catalog assets); 2 for one the catalog lacks. */
export function currencyDecimals(db: Db): (symbol: string) => Promise<number> {
  const known = new Map<string, number>();
  return async (symbol) => {
    let d = known.get(symbol);
    if (d === undefined) {
      const row = await db.selectFrom('assets').select('decimals').where('symbol', '=', symbol).executeTakeFirst();
      d = row?.decimals ?? 2;
      known.set(symbol, d);
    }
    return d;
  };
}

/** The payments report: every payment matched to one of the merchant's checkouts, by detection time. */
export function paymentsReader(): (req: PageRequest) => Promise<Page> {
  let decimals: ((symbol: string) => Promise<number>) | undefined;
  return async (req) => {
    decimals ??= currencyDecimals(req.db);
    let q = req.db
      .selectFrom('transfers as t')
      .innerJoin('checkouts as c', 'c.id', 't.checkout_id')
      .innerJoin('assets as a', 'a.id', 't.asset_id')
      .innerJoin('chains as ch', 'ch.id', 't.chain_id')
      .leftJoin('checkout_options as o', 'o.id', 't.option_id')
      .select([
        't.id',
        't.checkout_id',
        'c.order_id',
        't.detected_at',
        'ch.symbol as chain',
        'a.symbol as asset',
        't.tx_hash',
        't.log_index',
        't.to_address',
        't.amount',
        't.confirmations',
        't.retracted',
        't.option_id',
        'c.settled_option_id',
        'c.credited_posting_id',
        'c.currency',
        'o.rate',
      ]);
    if (req.merchantId !== null) q = q.where('c.merchant_id', '=', req.merchantId);
    const rows = await keysetRows(q, req, 't.detected_at', 't.id');
    const out: ReportRow[] = [];
    for (const t of rows) {
      const rate = t.rate === null ? null : new Decimal(t.rate);
      const places = await decimals(t.currency);
      out.push(
        new ReportRecord({
          checkoutId: t.checkout_id,
          orderId: t.order_id,
          detectedAt: t.detected_at,
          chain: t.chain,
          asset: t.asset,
          txHash: t.tx_hash,
          index: t.log_index,
          address: t.to_address,
          amount: t.amount,
          confirmations: t.confirmations,
          retracted: t.retracted === 1,
          credited:
            t.retracted === 0 &&
            t.credited_posting_id !== null &&
            t.option_id !== null &&
            t.option_id === t.settled_option_id,
          currency: t.currency,
          rate: t.rate,
          valueInCurrency:
            rate === null || rate.isZero()
              ? null
              : decimalText(new Decimal(t.amount).dividedBy(rate).toDecimalPlaces(places, Decimal.ROUND_HALF_UP)),
        }),
      );
    }
    return pageOf(
      rows,
      out,
      (r) => r.detected_at,
      (r) => r.id,
    );
  };
}

interface FeeFields {
  currency?: string;
  serviceFee?: string;
  onChainFee?: string;
  fee?: string;
}

/** The fees report: one row per settled checkout, by settlement time (its timeline's `settled` entry). */
export async function feesPage(req: PageRequest): Promise<Page> {
  let q = req.db
    .selectFrom('checkout_timeline as tl')
    .innerJoin('checkouts as c', 'c.id', 'tl.checkout_id')
    .leftJoin('checkout_options as o', 'o.id', 'c.settled_option_id')
    .leftJoin('assets as a', 'a.id', 'o.asset_id')
    .select(['c.id', 'tl.at', 'c.currency', 'c.amount', 'c.fee', 'a.symbol as asset', 'o.fee_in_asset'])
    .where('tl.status', '=', 'settled');
  if (req.merchantId !== null) q = q.where('c.merchant_id', '=', req.merchantId);
  const rows = await keysetRows(q, req, 'tl.at', 'tl.checkout_id');
  const out: ReportRow[] = rows.map((r) => {
    const fee = parseExactJson(r.fee) as FeeFields;
    return new ReportRecord({
      checkoutId: r.id,
      settledAt: r.at,
      currency: r.currency,
      amount: r.amount,
      feeCurrency: fee.currency ?? null,
      serviceFee: fee.serviceFee ?? null,
      onChainFee: fee.onChainFee ?? null,
      fee: fee.fee ?? null,
      asset: r.asset,
      feeInAsset: r.fee_in_asset,
    });
  });
  return pageOf(
    rows,
    out,
    (r) => r.at,
    (r) => r.id,
  );
}
