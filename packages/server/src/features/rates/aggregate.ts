import { Decimal } from '@hostpay/protocol';

/** A source's answer for one pair, as aggregation weighs it. */
export interface Observation {
  source: string;
  rate: string;
  fetchedAt: string;
  maxAgeSeconds: number;
}

/** How far (percent) a source may be from the median before it is dropped, unless the pair says otherwise. */
export const DEFAULT_MAX_DEVIATION_PERCENT = '5';

const median = (values: Decimal[]): Decimal => {
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : sorted[mid - 1]!.plus(sorted[mid]!).dividedBy(2);
};

export type Aggregate =
  | { ok: true; rate: Decimal; used: Observation[]; dropped: Observation[] }
  | { ok: false; reason: string };

/**
 * One rate out of several sources' answers: the median; sources further than `maxDeviationPercent`
 * from it are dropped and the median of the rest is the rate. When every source is that far off
 * (two sources that disagree), no source can be trusted over the other: no rate, and the stored
 * one ages until they agree again.
 */
export function aggregate(observations: readonly Observation[], maxDeviationPercent: Decimal): Aggregate {
  if (observations.length === 0) return { ok: false, reason: 'no fresh observation' };
  const first = median(observations.map((o) => new Decimal(o.rate)));
  const off = (o: Observation) =>
    new Decimal(o.rate).minus(first).abs().dividedBy(first).times(100).greaterThan(maxDeviationPercent);
  const used = observations.filter((o) => !off(o));
  const dropped = observations.filter(off);
  if (used.length === 0)
    return {
      ok: false,
      reason: `the sources disagree by more than ${maxDeviationPercent.toFixed()}% (${observations.map((o) => `${o.source} ${o.rate}`).join(', ')})`,
    };
  return {
    ok: true,
    rate: median(used.map((o) => new Decimal(o.rate))).toDecimalPlaces(18, Decimal.ROUND_HALF_UP),
    used,
    dropped,
  };
}

/** What a rate made of `used` is called in `rates.source`: the source's id, or `median(a,b,…)`. */
export function sourceName(used: readonly Observation[]): string {
  if (used.length === 1) return used[0]!.source;
  return `median(${used
    .map((o) => o.source)
    .sort()
    .join(',')})`.slice(0, 100);
}

/** A derived rate is as old as its oldest input and may be quoted no longer than its strictest. */
export function freshnessOf(used: readonly { fetchedAt: string; maxAgeSeconds: number | null }[]): {
  fetchedAt: string;
  maxAgeSeconds: number | null;
} {
  const fetchedAt = used.map((o) => o.fetchedAt).sort()[0]!;
  const ages = used.map((o) => o.maxAgeSeconds).filter((a): a is number => a !== null);
  return { fetchedAt, maxAgeSeconds: ages.length === 0 ? null : Math.min(...ages) };
}
