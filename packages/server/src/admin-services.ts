import { adminIdempotency, type AdminIdempotency } from './http/idempotency.js';
import type { AnyFeature, Provisions } from './feature-kit/feature.js';
import { REGISTERED_FEATURES, type FeatureAdmin } from './features/index.js';

/**
 * Operator operations, shared by the admin HTTP API, the CLI and demo seeding: every feature's
 * `admin` operations in one object. Every write takes an AuditContext and records who changed
 * what, before and after, in the same transaction.
 */
export function createAdminServices(
  provisions: Provisions,
  features: readonly AnyFeature[] = REGISTERED_FEATURES,
): AdminServices {
  const operations: Record<string, unknown> = {
    /** Idempotency-Key bookkeeping of the admin HTTP API. */
    idempotency: adminIdempotency(provisions),
  };
  const owner = new Map<string, string>([['idempotency', 'the kernel']]);
  for (const feature of features) {
    for (const [name, operation] of Object.entries(feature.admin?.(provisions) ?? {})) {
      // One flat object: a second feature's operation of the same name would replace the first's.
      const other = owner.get(name);
      if (other !== undefined) {
        throw new Error(`feature "${feature.name}" has an operator operation "${name}", which ${other} has too`);
      }
      owner.set(name, `feature "${feature.name}"`);
      operations[name] = operation;
    }
  }
  return operations as AdminServices;
}

export type AdminServices = FeatureAdmin & { idempotency: AdminIdempotency };
// The types of the features' operations and what they return, for typed clients (the CLI).
export type * from './features/index.js';
export type { Page, PageRequest } from './admin/pagination.js';

// The shapes of what the operations return, for typed clients of the admin API (the CLI).
type Item<F extends (...args: never[]) => Promise<{ items: unknown[] }>> = Awaited<ReturnType<F>>['items'][number];
export type RatePairView = Awaited<ReturnType<AdminServices['listRatePairs']>>[number];
export type WalletSummaryView = Item<AdminServices['listWallets']>;
export type SettlementView = Awaited<ReturnType<AdminServices['listSettlementCurrencies']>>[number];
export type NetworkView = Awaited<ReturnType<AdminServices['assetNetworks']>>[number];
export type MasterKeyRotation = Awaited<ReturnType<AdminServices['rotateMasterKey']>>;
