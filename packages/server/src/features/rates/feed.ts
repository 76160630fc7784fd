import { Decimal } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import type { RateTable } from './tables.js';
import { rateAge, quoteOfRow } from './quote.js';
import { aggregate, DEFAULT_MAX_DEVIATION_PERCENT, freshnessOf, sourceName, type Observation } from './aggregate.js';
import { writeRate } from './write.js';

export interface PairOutcome {
  pair: string;
  written: boolean;
  source?: string;
  rate?: string;
  /** Why nothing was written (pinned, no fresh observation, sources disagree). */
  reason?: string;
  dropped?: string[];
}

/** The fresh observations of a pair, from the enabled sources (fresh: younger than the source's maximum age). */
async function observationsOf(trx: Db, base: string, quote: string, nowMs: number): Promise<Observation[]> {
  const rows = await trx
    .selectFrom('rate_observations as o')
    .innerJoin('rate_sources as s', 's.id', 'o.source_id')
    .select(['o.source_id', 'o.rate', 'o.fetched_at', 's.max_age_seconds'])
    .where('o.base', '=', base)
    .where('o.quote', '=', quote)
    .where('s.enabled', '=', 1)
    .execute();
  return rows
    .map((r) => ({
      source: r.source_id,
      rate: new Decimal(r.rate).toFixed(),
      fetchedAt: r.fetched_at,
      maxAgeSeconds: r.max_age_seconds,
    }))
    .filter((o) => nowMs - Date.parse(o.fetchedAt) <= o.maxAgeSeconds * 1000);
}

async function deviationOf(trx: Db, base: string, quote: string): Promise<Decimal> {
  const rule = await trx
    .selectFrom('rate_pairs')
    .select('max_deviation_percent')
    .where('base', '=', base)
    .where('quote', '=', quote)
    .executeTakeFirst();
  return new Decimal(rule?.max_deviation_percent ?? DEFAULT_MAX_DEVIATION_PERCENT);
}

/**
 * Recomputes the stored rate of each pair from the sources' fresh observations (median, outliers
 * dropped) and writes it through `writeRate` unless the pair is pinned; then the cross rates the
 * operator allowed. A pair without a fresh observation is left as stored: it ages and goes stale.
 */
export async function aggregatePairs(trx: Db, pairs: Iterable<string>, nowMs: number): Promise<PairOutcome[]> {
  const at = new Date(nowMs).toISOString();
  const out: PairOutcome[] = [];
  for (const pair of new Set(pairs)) {
    const [base, quote] = pair.split('/') as [string, string];
    const agg = aggregate(await observationsOf(trx, base, quote, nowMs), await deviationOf(trx, base, quote));
    if (!agg.ok) {
      out.push({ pair, written: false, reason: agg.reason });
      continue;
    }
    const source = sourceName(agg.used);
    const fresh = freshnessOf(agg.used);
    const row: RateTable = {
      base,
      quote,
      rate: agg.rate.toFixed(),
      source,
      updated_at: at,
      fetched_at: fresh.fetchedAt,
      max_age_seconds: fresh.maxAgeSeconds,
      pinned: 0,
    };
    const written = await writeRate(trx, row, 'feed');
    out.push({
      pair,
      written,
      source,
      rate: row.rate,
      dropped: agg.dropped.map((o) => o.source),
      ...(written ? {} : { reason: 'pinned by an operator' }),
    });
  }
  out.push(...(await crossRates(trx, nowMs)));
  return out;
}

/** 1 `from` = rate `to` from a stored, unexpired rate, directly or inverted. */
function legOf(rows: RateTable[], from: string, to: string, nowMs: number) {
  const direct = rows.find((r) => r.base === from && r.quote === to);
  const inverse = rows.find((r) => r.base === to && r.quote === from);
  const row = direct ?? inverse;
  if (row === undefined) return undefined;
  const q = quoteOfRow(row);
  if (rateAge(q, nowMs).stale) return undefined;
  return {
    rate: direct ? q.rate : new Decimal(1).dividedBy(q.rate),
    fetchedAt: q.at,
    maxAgeSeconds: q.maxAgeSeconds,
    name: `${row.base}/${row.quote}`,
  };
}

/**
 * Cross rates, only for the pairs an operator allowed one for (`allowCross`), and only where no
 * source answers the pair itself: A/B = (A/C) / (B/C) over the first currency C (alphabetically)
 * with unexpired rates to both. Never over a pin.
 */
async function crossRates(trx: Db, nowMs: number): Promise<PairOutcome[]> {
  const allowed = await trx.selectFrom('rate_pairs').selectAll().where('allow_cross', '=', 1).execute();
  if (allowed.length === 0) return [];
  const rows = await trx.selectFrom('rates').selectAll().execute();
  const at = new Date(nowMs).toISOString();
  const out: PairOutcome[] = [];
  for (const rule of allowed) {
    const { base, quote } = rule;
    const pair = `${base}/${quote}`;
    if ((await observationsOf(trx, base, quote, nowMs)).length > 0) continue;
    const currencies = [...new Set(rows.flatMap((r) => [r.base, r.quote]))].filter((c) => c !== base && c !== quote);
    let made: RateTable | undefined;
    for (const via of currencies.sort()) {
      const a = legOf(rows, base, via, nowMs);
      const b = legOf(rows, quote, via, nowMs);
      if (a === undefined || b === undefined) continue;
      // A leg that is itself this cross (stored earlier) would feed the rate back into itself.
      if ([a.name, b.name].includes(pair)) continue;
      const fresh = freshnessOf([a, b]);
      made = {
        base,
        quote,
        rate: a.rate.dividedBy(b.rate).toDecimalPlaces(18, Decimal.ROUND_HALF_UP).toFixed(),
        source: `cross(${a.name},${b.name})`.slice(0, 100),
        updated_at: at,
        fetched_at: fresh.fetchedAt,
        max_age_seconds: fresh.maxAgeSeconds,
        pinned: 0,
      };
      break;
    }
    if (made === undefined) {
      out.push({ pair, written: false, reason: 'no currency with unexpired rates to both sides' });
      continue;
    }
    const written = await writeRate(trx, made, 'feed');
    out.push({
      pair,
      written,
      source: made.source,
      rate: made.rate,
      ...(written ? {} : { reason: 'pinned by an operator' }),
    });
  }
  return out;
}
