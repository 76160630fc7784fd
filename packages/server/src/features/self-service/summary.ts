import {
  ATTENTION_LIMIT,
  Decimal,
  decimalText,
  jsonDecimal,
  OVERPAID_ATTENTION_DAYS,
  PROCESSING_ATTENTION_MINUTES,
  writeExactJson,
} from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import { loadCheckouts, type CheckoutRow } from '../checkouts/queries.js';
import { checkoutView } from '../checkouts/view.js';

/**
 * The dashboard home's figures for one merchant (GET /api/v1/cp/summary). Every read is an index
 * range of that merchant (wallets by merchant; checkouts by merchant, status and last change —
 * migration 020), so the cost grows with the merchant's own month, not with the whole store.
 * Amounts are summed with decimal.js in the process (SQLite has no exact decimal sum).
 *
 * Settled volume: a settled checkout never changes again (settled has no move out in
 * checkouts/states.ts), so its `updated_at` is the moment it settled; days and months are UTC.
 * The volume is in the checkout's own currency (what the merchant priced), per currency.
 */
export interface SummaryDeps {
  db: Db;
  now: () => number;
  publicBaseUrl: () => string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Which statuses need the merchant, and from when (null: any time). */
function attentionRules(nowMs: number): { status: string; reason?: string; before?: string; since?: string }[] {
  return [
    { status: 'needs_review' },
    { status: 'underpaid' },
    { status: 'processing', before: new Date(nowMs - PROCESSING_ATTENTION_MINUTES * MINUTE).toISOString() },
    { status: 'settled', reason: 'paid_over', since: new Date(nowMs - OVERPAID_ATTENTION_DAYS * DAY).toISOString() },
  ];
}

export function summaryService({ db, now, publicBaseUrl }: SummaryDeps) {
  async function balances(merchantId: string) {
    const rows = await db
      .selectFrom('wallets as w')
      .innerJoin('assets as a', 'a.id', 'w.asset_id')
      .innerJoin('chains as c', 'c.id', 'w.chain_id')
      .select(['w.id', 'a.symbol as asset', 'c.symbol as chain', 'w.amount', 'w.freeze_amount'])
      .where('w.merchant_id', '=', merchantId)
      .execute();
    return rows
      .sort((x, y) => x.asset.localeCompare(y.asset) || x.chain.localeCompare(y.chain) || x.id.localeCompare(y.id))
      .map((r) => ({
        walletId: r.id,
        asset: r.asset,
        chain: r.chain,
        balance: jsonDecimal(decimalText(String(r.amount))),
        freezeAmount: jsonDecimal(decimalText(String(r.freeze_amount))),
      }));
  }

  async function settled(merchantId: string, nowMs: number) {
    const d = new Date(nowMs);
    const todayFrom = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())).toISOString();
    const monthFrom = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
    const rows = await db
      .selectFrom('checkouts')
      .select(['currency', 'amount', 'updated_at'])
      .where('merchant_id', '=', merchantId)
      .where('status', '=', 'settled')
      .where('updated_at', '>=', monthFrom)
      .execute();
    const today = new Map<string, { amount: Decimal; count: number }>();
    const month = new Map<string, { amount: Decimal; count: number }>();
    const add = (into: typeof today, currency: string, amount: string) => {
      const v = into.get(currency) ?? { amount: new Decimal(0), count: 0 };
      into.set(currency, { amount: v.amount.plus(amount), count: v.count + 1 });
    };
    for (const r of rows) {
      add(month, r.currency, String(r.amount));
      if (r.updated_at >= todayFrom) add(today, r.currency, String(r.amount));
    }
    const list = (m: typeof today) =>
      [...m]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, v]) => ({ currency, amount: jsonDecimal(decimalText(v.amount)), count: v.count }));
    return { todayFrom, monthFrom, today: list(today), month: list(month) };
  }

  async function attention(merchantId: string, nowMs: number) {
    const found: CheckoutRow[] = [];
    for (const rule of attentionRules(nowMs)) {
      let q = db
        .selectFrom('checkouts')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('status', '=', rule.status);
      if (rule.reason !== undefined) q = q.where('reason', '=', rule.reason);
      if (rule.before !== undefined) q = q.where('updated_at', '<', rule.before);
      if (rule.since !== undefined) q = q.where('updated_at', '>=', rule.since);
      found.push(...(await q.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(ATTENTION_LIMIT).execute()));
    }
    const newest = found
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.id.localeCompare(a.id))
      .slice(0, ATTENTION_LIMIT);
    const base = publicBaseUrl();
    return (await loadCheckouts(db, newest)).map((c) => checkoutView(c, base));
  }

  return {
    /** The summary as exact JSON text (the envelope's `result`). */
    async summaryJson(merchantId: string): Promise<string> {
      const nowMs = now();
      const [b, s, a] = await Promise.all([
        balances(merchantId),
        settled(merchantId, nowMs),
        attention(merchantId, nowMs),
      ]);
      return writeExactJson({ balances: b, settled: s, attention: a });
    },
  };
}

export type SummaryService = ReturnType<typeof summaryService>;
