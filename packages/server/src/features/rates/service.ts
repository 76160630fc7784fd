import { DECIMAL_PATTERN, Decimal, decimalText, jsonDecimal } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import { invalid } from '../../admin/deps.js';
import { requireAssetRow } from '../catalog/queries.js';
import type { Caches } from '../../cache/caches.js';
import type { Store } from '../../store/store.js';
import type { RatePairTable, RateTable } from './tables.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { DEFAULT_MAX_DEVIATION_PERCENT } from './aggregate.js';
import { aggregatePairs } from './feed.js';
import { findRate, listPairRules, listRateRows } from './queries.js';
import { quoteOfRow, rateAge } from './quote.js';
import { ratesChanged, writeRate } from './write.js';

const DECIMAL_RE = new RegExp(DECIMAL_PATTERN);

/** A rate as the audit log records it (no clock-dependent fields). */
export const rateView = (r: RateTable) => ({
  base: r.base,
  quote: r.quote,
  rate: jsonDecimal(r.rate),
  source: r.source,
  updatedAt: r.updated_at,
  fetchedAt: r.fetched_at ?? r.updated_at,
  maxAgeSeconds: r.max_age_seconds,
  pinned: r.pinned === 1,
});

/** A rate as the operator API shows it: with its age and whether it is stale now. */
export const rateStatusView = (r: RateTable, nowMs: number) => ({
  ...rateView(r),
  ...rateAge(quoteOfRow(r), nowMs),
});

const pairRuleView = (r: RatePairTable) => ({
  base: r.base,
  quote: r.quote,
  allowCross: r.allow_cross === 1,
  maxDeviationPercent: jsonDecimal(r.max_deviation_percent ?? DEFAULT_MAX_DEVIATION_PERCENT),
  updatedAt: r.updated_at,
});

async function pairOf(db: Store['db'], base: string, quote: string) {
  const b = (await requireAssetRow(db, base)).symbol;
  const q = (await requireAssetRow(db, quote)).symbol;
  if (b === q) invalid('a rate needs two different currencies');
  return { base: b, quote: q };
}

export interface RateAdminDeps {
  store: Store;
  caches: Caches;
  now: () => number;
}

/**
 * The operators' rates: set (which pins the pair: the feeds leave it alone), list (with age and
 * staleness), remove (the pin goes, and the feeds' rate takes its place at once if they have a
 * fresh one), and the per-pair rules of the feeds.
 */
export function rateAdmin({ store, caches, now }: RateAdminDeps) {
  const db = store.db;

  async function write<T>(fn: Parameters<typeof store.writeTransaction<T>>[0]): Promise<T> {
    const result = await store.writeTransaction(fn);
    await ratesChanged(caches);
    return result;
  }

  return {
    async setRate(req: { base: string; quote: string; rate: string; source?: string | undefined }, ctx: AuditContext) {
      const { base, quote } = await pairOf(db, req.base, req.quote);
      if (!DECIMAL_RE.test(req.rate))
        throw new HostpayError(
          'INVALID_AMOUNT',
          `rate must be a decimal number of at least 0 with at most 18 fractional digits, got ${JSON.stringify(req.rate)}`,
        );
      const rate = decimalText(req.rate);
      if (new Decimal(rate).isZero()) throw new HostpayError('INVALID_AMOUNT', 'rate must be greater than 0');
      const at = new Date(now()).toISOString();
      // An operator's rate pins the pair: rate feeds leave it alone until it is removed.
      const row: RateTable = {
        base,
        quote,
        rate,
        source: (req.source ?? 'manual').slice(0, 100),
        updated_at: at,
        fetched_at: at,
        max_age_seconds: null,
        pinned: 1,
      };
      return write(async (trx) => {
        const before = await findRate(trx, base, quote);
        await writeRate(trx, row, 'operator');
        await recordAudit(trx, ctx, {
          action: 'rate.set',
          objectType: 'rate',
          objectId: `${base}/${quote}`,
          before: before ? rateView(before) : null,
          after: rateView(row),
        });
        return rateStatusView(row, now());
      });
    },

    listRates: async () => {
      const at = now();
      return (await listRateRows(db)).map((r) => rateStatusView(r, at));
    },

    /** Removes a stored rate (an operator's pin above all); a feed with a fresh answer for the pair writes its rate in the same transaction. */
    async deleteRate(baseIn: string, quoteIn: string, ctx: AuditContext) {
      const base = baseIn.toUpperCase();
      const quote = quoteIn.toUpperCase();
      return write(async (trx) => {
        const before = await findRate(trx, base, quote);
        if (before === undefined)
          throw new HostpayError('NOT_FOUND', `no ${base}/${quote} rate is stored (GET /admin/v1/rates lists them)`);
        await trx.deleteFrom('rates').where('base', '=', base).where('quote', '=', quote).execute();
        await aggregatePairs(trx, [`${base}/${quote}`], now());
        const after = await findRate(trx, base, quote);
        await recordAudit(trx, ctx, {
          action: 'rate.delete',
          objectType: 'rate',
          objectId: `${base}/${quote}`,
          before: rateView(before),
          after: after ? rateView(after) : null,
        });
        return { base, quote, deleted: true as const, replacedBy: after ? rateStatusView(after, now()) : null };
      });
    },

    async setRatePair(
      baseIn: string,
      quoteIn: string,
      req: { allowCross?: boolean | undefined; maxDeviationPercent?: string | undefined },
      ctx: AuditContext,
    ) {
      const { base, quote } = await pairOf(db, baseIn, quoteIn);
      if (req.maxDeviationPercent !== undefined) {
        const d = DECIMAL_RE.test(req.maxDeviationPercent) ? new Decimal(req.maxDeviationPercent) : null;
        if (d === null || d.lte(0) || d.gt(100))
          throw new HostpayError('INVALID_AMOUNT', 'maxDeviationPercent must be a decimal greater than 0, at most 100');
      }
      return write(async (trx) => {
        const before = await trx
          .selectFrom('rate_pairs')
          .selectAll()
          .where('base', '=', base)
          .where('quote', '=', quote)
          .executeTakeFirst();
        const row: RatePairTable = {
          base,
          quote,
          allow_cross: (req.allowCross ?? before?.allow_cross === 1) ? 1 : 0,
          max_deviation_percent:
            req.maxDeviationPercent === undefined
              ? (before?.max_deviation_percent ?? null)
              : decimalText(req.maxDeviationPercent),
          updated_at: new Date(now()).toISOString(),
        };
        await trx
          .insertInto('rate_pairs')
          .values(row)
          .onConflict((oc) =>
            oc.columns(['base', 'quote']).doUpdateSet({
              allow_cross: row.allow_cross,
              max_deviation_percent: row.max_deviation_percent,
              updated_at: row.updated_at,
            }),
          )
          .execute();
        await aggregatePairs(trx, [`${base}/${quote}`], now());
        await recordAudit(trx, ctx, {
          action: 'rate_pair.set',
          objectType: 'rate_pair',
          objectId: `${base}/${quote}`,
          before: before ? pairRuleView(before) : null,
          after: pairRuleView(row),
        });
        return pairRuleView(row);
      });
    },

    listRatePairs: async () => (await listPairRules(db)).map(pairRuleView),
  };
}

export type RateAdmin = ReturnType<typeof rateAdmin>;
