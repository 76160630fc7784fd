import { checkContributions } from './contributions.js';
import { KERNEL_PROVISIONS, type AnyFeature, type ProvisionName } from './feature.js';

/**
 * The features in an order where each comes after whatever provides its needs, keeping the
 * registration order where it already is one. Throws at start-up, naming the feature and the
 * provision, when a need is provided by no registered feature or two features provide one name,
 * and naming the feature and the point when a contribution has no consumer (contributions.ts).
 */
export function orderFeatures<F extends AnyFeature>(
  features: readonly F[],
  kernel: readonly ProvisionName[] = KERNEL_PROVISIONS,
): F[] {
  const provider = new Map<ProvisionName, string>(kernel.map((name) => [name, 'the kernel']));
  for (const f of features) {
    for (const name of f.provides) {
      const other = provider.get(name);
      if (other !== undefined) {
        throw new Error(
          `feature "${f.name}" provides "${name}", which ${other} already provides: one name, one provider`,
        );
      }
      provider.set(name, `feature "${f.name}"`);
    }
  }
  for (const f of features) {
    const missing = f.needs.filter((name) => !provider.has(name));
    if (missing.length > 0) {
      throw new Error(
        `feature "${f.name}" needs ${missing.map((m) => `"${m}"`).join(', ')}, which no registered feature provides: register the feature that provides it (features/index.ts)`,
      );
    }
  }
  checkContributions(features);
  const available = new Set<ProvisionName>(kernel);
  const ordered: F[] = [];
  const waiting = [...features];
  while (waiting.length > 0) {
    const i = waiting.findIndex((f) => f.needs.every((name) => available.has(name)));
    if (i === -1) {
      throw new Error(`features ${waiting.map((f) => `"${f.name}"`).join(', ')} need each other: no order makes them`);
    }
    const [next] = waiting.splice(i, 1);
    ordered.push(next!);
    for (const name of next!.provides) available.add(name);
  }
  return ordered;
}
