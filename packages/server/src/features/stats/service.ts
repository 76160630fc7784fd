import { Decimal, decimalText, jsonDecimal, type JsonDecimal } from '@hostpay/protocol';
import { sql } from 'kysely';
import { CHECKOUT_STATUSES } from '../checkouts/states.js';
import type { Db } from '../../store/store.js';

/**
 * The figures of the console's overview, for a time range [from, to): what settled per day and
 * asset, the checkout funnel, time to settle, balances, webhook health. Amounts are summed with
 * decimal.js in the process (SQLite has no exact decimal sum), so every figure is exact; ratios
 * are decimal text rounded to 4 places. Everything is read in one pass per table over the range.
 */
export interface StatsRange {
  from: string;
  to: string;
  merchantId?: string | undefined;
}

export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;

const ratio = (part: number, whole: number): JsonDecimal | null =>
  whole === 0
    ? null
    : jsonDecimal(decimalText(new Decimal(part).div(whole).toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN)));

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

export function statsAdmin(db: Db, now: () => number) {
  async function settledVolume(range: StatsRange) {
    let q = db
      .selectFrom('checkout_timeline as t')
      .innerJoin('checkouts as c', 'c.id', 't.checkout_id')
      .leftJoin('ledger_postings as p', 'p.id', 'c.credited_posting_id')
      .leftJoin('wallets as w', 'w.id', 'p.wallet_id')
      .leftJoin('assets as a', 'a.id', 'w.asset_id')
      .select(['c.id', 'c.created_at', 't.at', 'p.amount', 'a.symbol'])
      .where('t.status', '=', 'settled')
      .where('t.at', '>=', range.from)
      .where('t.at', '<', range.to);
    if (range.merchantId !== undefined) q = q.where('c.merchant_id', '=', range.merchantId);
    const rows = await q.execute();
    const days = new Map<string, { day: string; asset: string; amount: Decimal; count: number }>();
    const seconds: number[] = [];
    for (const r of rows) {
      seconds.push(Math.max(0, Math.round((Date.parse(r.at) - Date.parse(r.created_at)) / 1000)));
      if (r.amount === null || r.symbol === null) continue;
      const day = r.at.slice(0, 10);
      const key = `${day} ${r.symbol}`;
      const entry = days.get(key) ?? { day, asset: r.symbol, amount: new Decimal(0), count: 0 };
      entry.amount = entry.amount.plus(String(r.amount));
      entry.count++;
      days.set(key, entry);
    }
    const perDay = [...days.values()]
      .sort((a, b) => a.day.localeCompare(b.day) || a.asset.localeCompare(b.asset))
      .map((d) => ({ day: d.day, asset: d.asset, amount: jsonDecimal(decimalText(d.amount)), count: d.count }));
    const totals = new Map<string, { amount: Decimal; count: number }>();
    for (const d of days.values()) {
      const t = totals.get(d.asset) ?? { amount: new Decimal(0), count: 0 };
      totals.set(d.asset, { amount: t.amount.plus(d.amount), count: t.count + d.count });
    }
    return {
      settledVolume: perDay,
      settledTotals: [...totals]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([asset, t]) => ({ asset, amount: jsonDecimal(decimalText(t.amount)), count: t.count })),
      timeToSettle: { settled: rows.length, medianSeconds: median(seconds) },
    };
  }

  async function funnel(range: StatsRange) {
    let q = db
      .selectFrom('checkouts')
      .select(['status', sql<number>`count(*)`.as('n')])
      .where('created_at', '>=', range.from)
      .where('created_at', '<', range.to);
    if (range.merchantId !== undefined) q = q.where('merchant_id', '=', range.merchantId);
    const byStatus: Record<string, number> = Object.fromEntries(CHECKOUT_STATUSES.map((s) => [s, 0]));
    for (const r of await q.groupBy('status').execute()) byStatus[r.status] = Number(r.n);
    // Paid: reached the payment threshold (processing) or was settled, whatever came after.
    let paidQ = db
      .selectFrom('checkouts as c')
      .select(sql<number>`count(*)`.as('n'))
      .where('c.created_at', '>=', range.from)
      .where('c.created_at', '<', range.to)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('checkout_timeline as t')
            .select('t.seq')
            .whereRef('t.checkout_id', '=', 'c.id')
            .where('t.status', 'in', ['processing', 'settled']),
        ),
      );
    if (range.merchantId !== undefined) paidQ = paidQ.where('c.merchant_id', '=', range.merchantId);
    const paid = Number((await paidQ.executeTakeFirst())?.n ?? 0);
    const created = Object.values(byStatus).reduce((a, b) => a + b, 0);
    return {
      funnel: {
        created,
        paid,
        settled: byStatus.settled!,
        expired: byStatus.expired!,
        needsReview: byStatus.needs_review!,
        conversionRate: ratio(byStatus.settled!, created),
        paidRate: ratio(paid, created),
      },
      byStatus,
    };
  }

  async function balances(merchantId: string | undefined) {
    let q = db
      .selectFrom('wallets as w')
      .innerJoin('assets as a', 'a.id', 'w.asset_id')
      .innerJoin('chains as c', 'c.id', 'w.chain_id')
      .select(['a.symbol as asset', 'c.symbol as chain', 'w.amount', 'w.freeze_amount']);
    if (merchantId !== undefined) q = q.where('w.merchant_id', '=', merchantId);
    const groups = new Map<
      string,
      { asset: string; chain: string; amount: Decimal; frozen: Decimal; wallets: number }
    >();
    for (const r of await q.execute()) {
      const key = `${r.asset} ${r.chain}`;
      const g = groups.get(key) ?? {
        asset: r.asset,
        chain: r.chain,
        amount: new Decimal(0),
        frozen: new Decimal(0),
        wallets: 0,
      };
      g.amount = g.amount.plus(String(r.amount));
      g.frozen = g.frozen.plus(String(r.freeze_amount));
      g.wallets++;
      groups.set(key, g);
    }
    return [...groups.values()]
      .sort((a, b) => a.asset.localeCompare(b.asset) || a.chain.localeCompare(b.chain))
      .map((g) => ({
        asset: g.asset,
        chain: g.chain,
        amount: jsonDecimal(decimalText(g.amount)),
        frozen: jsonDecimal(decimalText(g.frozen)),
        wallets: g.wallets,
      }));
  }

  async function webhookHealth(range: StatsRange) {
    let attempts = db
      .selectFrom('webhook_attempts as t')
      .select([sql<number>`count(*)`.as('total'), sql<number>`coalesce(sum(t.succeeded), 0)`.as('ok')])
      .where('t.attempted_at', '>=', range.from)
      .where('t.attempted_at', '<', range.to);
    let queue = db
      .selectFrom('webhook_deliveries')
      .select([sql<number>`count(*)`.as('queued'), sql<string | null>`min(created_at)`.as('oldest')])
      .where('status', '=', 'pending');
    let failing = db
      .selectFrom('webhook_endpoints')
      .select(sql<number>`count(*)`.as('n'))
      .where((eb) => eb.or([eb('failing_since', 'is not', null), eb('disabled', '=', 1)]));
    if (range.merchantId !== undefined) {
      const m = range.merchantId;
      attempts = attempts.innerJoin('webhook_endpoints as e', 'e.id', 't.endpoint_id').where('e.merchant_id', '=', m);
      queue = queue.where('merchant_id', '=', m);
      failing = failing.where('merchant_id', '=', m);
    }
    const [a, q, f] = await Promise.all([
      attempts.executeTakeFirst(),
      queue.executeTakeFirst(),
      failing.executeTakeFirst(),
    ]);
    const total = Number(a?.total ?? 0);
    const succeeded = Number(a?.ok ?? 0);
    const oldest = q?.oldest ?? null;
    return {
      attempts: total,
      succeeded,
      successRate: ratio(succeeded, total),
      queued: Number(q?.queued ?? 0),
      oldestQueuedAt: oldest === null ? null : new Date(String(oldest)).toISOString(),
      endpointsFailingOrDisabled: Number(f?.n ?? 0),
    };
  }

  return {
    /** The default range: the last 30 days up to now (the injected clock). */
    defaultStatsRange(): { from: string; to: string } {
      const to = now();
      return { from: new Date(to - DEFAULT_RANGE_DAYS * DAY_MS).toISOString(), to: new Date(to).toISOString() };
    },
    async stats(range: StatsRange) {
      const [volume, f, b, w] = await Promise.all([
        settledVolume(range),
        funnel(range),
        balances(range.merchantId),
        webhookHealth(range),
      ]);
      return {
        from: range.from,
        to: range.to,
        merchantId: range.merchantId ?? null,
        generatedAt: new Date(now()).toISOString(),
        ...volume,
        ...f,
        balances: b,
        webhooks: w,
      };
    },
  };
}

export type StatsAdmin = ReturnType<typeof statsAdmin>;
