/**
 * The types of the features' operator operations and of what they return, for typed clients of
 * the admin API (the CLI), re-exported by the composition through features/index.ts.
 */
export type { AuditContext, AuditFilter, AuditView } from './audit/service.js';
export type { CreatedApiKey, KeySettings, KeyView } from './keys/service.js';
export type { MerchantView } from './merchants/service.js';
export type { FeeTierRequest } from './fees/service.js';
export type { WalletFilter } from './wallets/service.js';
export type FeeTierView = ReturnType<typeof import('./fees/service.js').feeTierView>;
export type RateView = ReturnType<typeof import('./rates/service.js').rateStatusView>;
export type RateSourceView = ReturnType<typeof import('./rates/sources.js').sourceView>;
export type { SourceRequest as RateSourceRequest } from './rates/sources.js';
export type PostingView = ReturnType<typeof import('./ledger/service.js').postingView>;
export type * from './catalog/types.js';
export type TransferView = ReturnType<typeof import('./checkouts/transfers.js').transferView>;
export type { TransferReport } from './checkouts/transfers.js';
export type { WatchRequest, WatchView } from './chain-watch/service.js';
export type { HotWalletView } from './hot-wallet/service.js';
export type { PayoutChainView } from './hot-wallet/payout-view.js';
