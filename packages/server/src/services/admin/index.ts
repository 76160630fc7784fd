import type { AdminDeps } from './deps.js';
import { feeAdmin } from './fees.js';
import { adminIdempotency } from './idempotency.js';
import { keyAdmin } from './keys.js';
import { rotateMasterKey } from './master-key.js';
import { merchantAdmin } from './merchants.js';
import { walletAdmin } from './wallets.js';
import { listAudit, type AuditContext, type AuditFilter } from './audit.js';
import type { PageRequest } from './pagination.js';

/**
 * Operator operations, shared by the admin HTTP API, the CLI and demo seeding. Every write takes
 * an AuditContext and records who changed what, before and after, in the same transaction.
 */
export function createAdminServices(deps: AdminDeps) {
  return {
    ...merchantAdmin(deps),
    ...keyAdmin(deps),
    ...walletAdmin(deps),
    ...feeAdmin(deps),
    listAudit: (filter: AuditFilter, page: PageRequest) => listAudit(deps.store.db, filter, page),
    rotateMasterKey: (ctx: AuditContext) => rotateMasterKey(deps.store, deps.box, ctx),
    /** Idempotency-Key bookkeeping of the admin HTTP API. */
    idempotency: adminIdempotency(deps),
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
export type { AuditContext, AuditFilter, AuditView } from './audit.js';
export type { CreatedApiKey, KeySettings, KeyView } from './keys.js';
export type { MerchantView } from './merchants.js';
export type { FeeTierRequest } from './fees.js';
export type { Page, PageRequest } from './pagination.js';
export type { WalletFilter } from './wallets.js';

// The shapes of what the operations return, for typed clients of the admin API (the CLI).
type Item<F extends (...args: never[]) => Promise<{ items: unknown[] }>> = Awaited<ReturnType<F>>['items'][number];
export type FeeTierView = ReturnType<typeof import('./fees.js').feeTierView>;
export type RateView = ReturnType<typeof import('./fees.js').rateView>;
export type PostingView = ReturnType<typeof import('./wallets.js').postingView>;
export type WalletSummaryView = Item<AdminServices['listWallets']>;
export type SettlementView = Awaited<ReturnType<AdminServices['listSettlementCurrencies']>>[number];
export type NetworkView = Awaited<ReturnType<AdminServices['assetNetworks']>>[number];
export type MasterKeyRotation = Awaited<ReturnType<AdminServices['rotateMasterKey']>>;
