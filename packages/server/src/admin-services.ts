import type { AdminDeps } from './admin/deps.js';
import { feeAdmin } from './features/fees/service.js';
import { adminIdempotency } from './http/idempotency.js';
import type { InstanceIdentity } from './cluster/instance.js';
import { keyAdmin } from './features/keys/service.js';
import { rotateMasterKey } from './features/master-key/service.js';
import { merchantAdmin } from './features/merchants/service.js';
import { walletAdmin } from './features/wallets/service.js';
import { ledgerAdmin } from './features/ledger/service.js';
import { catalogAdmin } from './features/catalog/service.js';
import { listAudit, type AuditContext, type AuditFilter } from './features/audit/service.js';
import type { PageRequest } from './admin/pagination.js';
import type { CheckoutService } from './features/checkouts/service.js';
import type { Webhooks } from './features/webhooks/feature.js';
import type { EvmWatch } from './features/evm-watch/feature.js';
import { consoleSessions, type ConsoleSessionsOptions } from './features/console/sessions.js';
import { statsAdmin } from './features/stats/service.js';

/**
 * Operator operations, shared by the admin HTTP API, the CLI and demo seeding. Every write takes
 * an AuditContext and records who changed what, before and after, in the same transaction.
 */
export function createAdminServices(
  deps: AdminDeps & {
    checkouts: CheckoutService;
    webhooks: Webhooks;
    evm: EvmWatch;
    now?: (() => number) | undefined;
    /** Owner of this process's Idempotency-Key claims (cluster/instance.ts). */
    identity?: InstanceIdentity | undefined;
  },
) {
  const now = deps.now ?? Date.now;
  return {
    /** Transfers, review and the operators' view of checkouts (features/checkouts). */
    checkouts: deps.checkouts,
    ...merchantAdmin(deps),
    ...keyAdmin(deps),
    ...walletAdmin(deps),
    ...ledgerAdmin(deps),
    ...feeAdmin(deps),
    ...catalogAdmin(deps),
    /** Every merchant's webhook endpoints with their health (features/webhooks). */
    ...deps.webhooks.admin,
    /** Which EVM chains the watcher follows, through which node (features/evm-watch). */
    ...deps.evm.admin,
    /** The console overview's figures (features/stats). */
    ...statsAdmin(deps.store.db, now),
    /** Console sessions (features/console), opened by the app with its operator tokens. */
    consoleSessions: (opts: Omit<ConsoleSessionsOptions, 'db'>) => consoleSessions({ db: deps.store.db, ...opts }),
    listAudit: (filter: AuditFilter, page: PageRequest) => listAudit(deps.store.db, filter, page),
    rotateMasterKey: (ctx: AuditContext) => rotateMasterKey(deps.store, deps.box, ctx),
    /** Idempotency-Key bookkeeping of the admin HTTP API. */
    idempotency: adminIdempotency(deps),
  };
}

export type AdminServices = ReturnType<typeof createAdminServices>;
export type { AuditContext, AuditFilter, AuditView } from './features/audit/service.js';
export type { CreatedApiKey, KeySettings, KeyView } from './features/keys/service.js';
export type { MerchantView } from './features/merchants/service.js';
export type { FeeTierRequest } from './features/fees/service.js';
export type { Page, PageRequest } from './admin/pagination.js';
export type { WalletFilter } from './features/wallets/service.js';

// The shapes of what the operations return, for typed clients of the admin API (the CLI).
type Item<F extends (...args: never[]) => Promise<{ items: unknown[] }>> = Awaited<ReturnType<F>>['items'][number];
export type FeeTierView = ReturnType<typeof import('./features/fees/service.js').feeTierView>;
export type RateView = ReturnType<typeof import('./features/fees/service.js').rateView>;
export type PostingView = ReturnType<typeof import('./features/ledger/service.js').postingView>;
export type WalletSummaryView = Item<AdminServices['listWallets']>;
export type SettlementView = Awaited<ReturnType<AdminServices['listSettlementCurrencies']>>[number];
export type NetworkView = Awaited<ReturnType<AdminServices['assetNetworks']>>[number];
export type * from './features/catalog/types.js';
export type MasterKeyRotation = Awaited<ReturnType<AdminServices['rotateMasterKey']>>;
export type TransferView = ReturnType<typeof import('./features/checkouts/transfers.js').transferView>;
export type { TransferReport } from './features/checkouts/transfers.js';
export type { WatchRequest, WatchView } from './features/evm-watch/service.js';
