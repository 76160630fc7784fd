/**
 * Contribution points: work one feature hands another that it does not itself provide as a
 * service (the webhooks' share of every appended event, the hot wallet's veto over payout moves
 * and the confirmations it wants counted). The feature that runs the work declares the point: its
 * name and the type of one contribution, added here with `declare module` from its own folder,
 * and `consumes` it; any feature `contributes` to it. The registry collects every contribution
 * and hands the consumer the list, so no feature keeps a registry of its own.
 */
// biome-ignore lint/suspicious/noEmptyInterface: features merge their points into it.
export interface ContributionPoints {}

export type PointName = keyof ContributionPoints;

/**
 * What a consumer reads of its points: each gives every registered feature's contributions, in
 * the order the features are made. Read it when the work runs (an event appended, a payout moved,
 * a round), not in `create`: the list is complete once every feature is made, and reading it
 * earlier throws.
 */
export type Contributed<C extends PointName> = { readonly [K in C]: () => readonly ContributionPoints[K][] };

/** A feature's contributions: per point, a function of what the feature needs and provides. */
export type Contributions<D> = {
  readonly [K in PointName]?: (provided: D) => readonly ContributionPoints[K][];
};

interface Wired {
  name: string;
  consumes?: readonly PointName[] | undefined;
  contributes?: Contributions<never> | undefined;
}

/**
 * Throws at start-up, naming the feature and the point, when a feature contributes to a point no
 * registered feature consumes (its contribution would be dropped silently) or two features
 * consume one point.
 */
export function checkContributions(features: readonly Wired[]): void {
  const consumer = new Map<string, string>();
  for (const f of features) {
    for (const point of f.consumes ?? []) {
      const other = consumer.get(point);
      if (other !== undefined) {
        throw new Error(
          `feature "${f.name}" consumes "${point}", which feature "${other}" already consumes: one point, one consumer`,
        );
      }
      consumer.set(point, f.name);
    }
  }
  for (const f of features) {
    for (const point of Object.keys(f.contributes ?? {})) {
      if (!consumer.has(point)) {
        throw new Error(
          `feature "${f.name}" contributes to "${point}", which no registered feature consumes: register the feature that declares it (features/index.ts) or drop the contribution`,
        );
      }
    }
  }
}

/**
 * The contribution lists of one start-up: `of(feature)` is what a consumer's create and start
 * get; `collect(feature, provided)` adds a feature's contributions once it is made; `seal()`
 * makes the lists readable once every feature is made.
 */
export function contributionLists() {
  const lists = new Map<string, unknown[]>();
  let sealed = false;
  return {
    of(feature: Wired): Contributed<PointName> {
      const view: Record<string, () => readonly unknown[]> = {};
      for (const point of feature.consumes ?? []) {
        const list: unknown[] = [];
        lists.set(point, list);
        view[point] = () => {
          if (!sealed) {
            throw new Error(
              `feature "${feature.name}" read its "${point}" contributions before every feature was made: read them when the work runs`,
            );
          }
          return list;
        };
      }
      return view as Contributed<PointName>;
    },
    collect(feature: Wired, provided: unknown): void {
      for (const [point, contribute] of Object.entries(feature.contributes ?? {})) {
        const list = lists.get(point);
        if (list === undefined) continue; // checkContributions refused it before anything was made
        list.push(...(contribute as (p: unknown) => readonly unknown[])(provided));
      }
    },
    seal(): void {
      for (const list of lists.values()) Object.freeze(list);
      sealed = true;
    },
  };
}
