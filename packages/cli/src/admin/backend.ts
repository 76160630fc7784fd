import type { FeePreview } from '@hostpay/client';
import type { CatalogBackend } from './catalog-backend.js';
import type { OperatorReportKind, OperatorReportQuery, Reconciliation } from './reports.js';
import type {
  AdminPayout,
  Destination,
  PayoutExport,
  PayoutFilter,
  PayoutNetworkFee,
  PayoutChain,
  AdminWallet,
  Checkout,
  CheckoutFilter,
  ApiKey,
  AuditEntry,
  AuditFilter,
  CreatedApiKey,
  FeeTier,
  FeeTierRequest,
  Grant,
  KeyRotation,
  KeySettings,
  KeyStatus,
  MasterKeyRotation,
  Merchant,
  MerchantStatus,
  Network,
  Posting,
  PostingKind,
  PostingResult,
  Rate,
  RatePair,
  RateSource,
  RateSourceRequest,
  RateSpread,
  SettlementCurrency,
  Transfer,
  TransferOutcome,
  TransferReport,
  WalletFilter,
  WalletSummary,
} from './views.js';

/**
 * Every operator operation, as the CLI commands call it: the typed client of the admin API
 * (remote-backend.ts). It reaches a remote server over HTTP, or the local store through the same
 * API run in this process (local-backend.ts, app.inject); there is no second implementation.
 *
 * Decimals are exact strings ("12.000000000000000001"), as in @hostpay/client; `--json`
 * turns them back into JSON number literals (exact.ts), so the document matches the API.
 */
/** A merchant dashboard user's role. */
export type UserRole = 'owner' | 'admin' | 'developer' | 'viewer';
/** A one-time link (invitation or password reset), shown once. */
export interface UserLink {
  id: string;
  link: string;
  expiresAt: string;
}

export interface AdminBackend {
  /** 'local': the store in a data dir; 'remote': a server's /admin/v1. */
  readonly kind: 'local' | 'remote';
  /** Every merchant's report files, and the reconciliation of the books with the chains (docs/reports.md). */
  readonly reports: {
    /** The file's text, chunk by chunk, as it streams. */
    download(kind: OperatorReportKind, q: OperatorReportQuery): AsyncIterable<string>;
    reconciliation(q: { from: string; to: string }): Promise<Reconciliation>;
  };
  /** The data dir or the admin URL, for messages. */
  readonly target: string;
  readonly merchants: {
    create(name: string, w?: Write): Promise<Merchant>;
    get(id: string): Promise<Merchant>;
    list(q: PageRequest & { status?: MerchantStatus | undefined }): Promise<Page<Merchant>>;
    rename(id: string, name: string, w?: Write): Promise<Merchant>;
    suspend(id: string, w?: Write): Promise<Merchant>;
    resume(id: string, w?: Write): Promise<Merchant>;
    /** Name, underpayment tolerance (percent, decimal text 0..5), rate spread (0..10; null: the default), payout settings. */
    update(id: string, change: MerchantChange, w?: Write): Promise<Merchant>;
    /** A one-time link to the merchant dashboard for `email` to join with `role` (default owner). */
    inviteUser(id: string, email: string, role: UserRole | undefined, w?: Write): Promise<UserLink>;
    /** A one-time password-reset link for a user of the merchant. */
    userResetLink(id: string, email: string, w?: Write): Promise<UserLink>;
  };
  /** The default rate spread, for merchants without their own. */
  readonly rateSpread: {
    get(): Promise<RateSpread>;
    set(percent: string, w?: Write): Promise<RateSpread>;
  };
  readonly transfers: {
    /** Idempotent on chain + txHash + index: a repeat may only raise confirmations (`created: false`). */
    report(req: TransferReport, w?: Write): Promise<TransferOutcome>;
    list(
      q: PageRequest & { matched?: boolean | undefined; chain?: string | undefined; checkoutId?: string | undefined },
    ): Promise<Page<Transfer>>;
    retract(id: string, w?: Write): Promise<TransferOutcome>;
    attach(id: string, checkoutId: string, w?: Write): Promise<TransferOutcome>;
  };
  readonly checkouts: {
    /** Every merchant's checkouts, oldest first. */
    list(q: CheckoutFilter & PageRequest): Promise<Page<Checkout>>;
    get(id: string): Promise<Checkout>;
    /** Only in needs_review: credits what was received minus the fee for it. */
    settle(id: string, pick: { asset?: string | undefined; chain?: string | undefined }, w?: Write): Promise<Checkout>;
    reject(id: string, w?: Write): Promise<Checkout>;
  };
  readonly payouts: {
    /** Every merchant's payouts, filtered (status, merchant, chain). */
    list(q: PayoutFilter & PageRequest): Promise<Page<AdminPayout>>;
    get(id: string): Promise<AdminPayout>;
    approve(id: string, w?: Write): Promise<AdminPayout>;
    reject(id: string, reason: string, w?: Write): Promise<AdminPayout>;
    cancel(id: string, w?: Write): Promise<AdminPayout>;
    /** The operator paid it (manual sender): the transaction that did. */
    sent(id: string, txHash: string, w?: Write): Promise<AdminPayout>;
    complete(id: string, w?: Write): Promise<AdminPayout>;
    fail(id: string, reason: string, w?: Write): Promise<AdminPayout>;
    /** A hot-wallet payout's transactions: state (forgotten?), an operator's cancel, what can be done. */
    chain(id: string): Promise<PayoutChain>;
    /** The hot wallet's sender replaces the (unmined) transaction with a zero-value one to itself. */
    cancelByReplacement(id: string, w?: Write): Promise<PayoutChain>;
    /** The stored transaction sent to the node again now. */
    rebroadcast(id: string, w?: Write): Promise<PayoutChain>;
    /** The manual sender's queue: approved payouts, oldest first (CSV text too with format csv). */
    export(q: { format: 'json' | 'csv'; chain?: string | undefined }): Promise<PayoutExport>;
    /** Ends a destination's cooling-off now. */
    activateDestination(id: string, w?: Write): Promise<Destination>;
    /** The network fee estimate frozen with every payout of an asset on a chain (in the asset). */
    setFee(req: { chain: string; asset: string; networkFee: string }, w?: Write): Promise<PayoutNetworkFee>;
    /** Every estimate set; a chain and asset without one estimates 0. */
    listFees(): Promise<PayoutNetworkFee[]>;
  };
  readonly keys: {
    create(merchantId: string, settings: KeySettings, w?: Write): Promise<CreatedApiKey>;
    list(q: PageRequest & { merchantId?: string | undefined; status?: KeyStatus | undefined }): Promise<Page<ApiKey>>;
    get(id: string): Promise<ApiKey>;
    update(id: string, settings: KeySettings, w?: Write): Promise<ApiKey>;
    revoke(id: string, w?: Write): Promise<ApiKey>;
    /** A new key with the same settings; the old one works until `overlapUntil` (server default 24 h). */
    rotate(id: string, overlapUntil: string | undefined, w?: Write): Promise<KeyRotation>;
    /** Granting twice is harmless. */
    grant(keyId: string, merchantId: string, w?: Write): Promise<Grant>;
    ungrant(
      keyId: string,
      merchantId: string,
      w?: Write,
    ): Promise<{ keyId: string; merchantId: string; deleted: true }>;
    /** NOT_FOUND for an unknown key (not an empty list). */
    grants(keyId: string): Promise<Grant[]>;
  };
  readonly wallets: {
    create(req: { merchantId: string; asset: string; chain: string; active: boolean }, w?: Write): Promise<AdminWallet>;
    get(id: string): Promise<AdminWallet>;
    list(q: WalletFilter & PageRequest): Promise<Page<WalletSummary>>;
    setActive(id: string, active: boolean, w?: Write): Promise<AdminWallet>;
    /** Idempotent on `w.idempotencyKey`: a repeat returns the first posting with `replayed: true`. */
    post(req: { walletId: string; kind: PostingKind; amount: string }, w?: Write): Promise<PostingResult>;
    postings(walletId: string, q: PageRequest): Promise<Page<Posting>>;
  };
  readonly assets: {
    networks(symbol: string): Promise<Network[]>;
  };
  /** Assets, chains and their keys, networks, deposit addresses (catalog-backend.ts). */
  readonly catalog: CatalogBackend;
  readonly fees: {
    set(req: FeeTierRequest, w?: Write): Promise<FeeTier>;
    /** `merchantId` '' lists the default schedule only; absent lists every schedule. */
    list(q: { merchantId?: string | undefined; currency?: string | undefined }): Promise<FeeTier[]>;
    delete(id: string, w?: Write): Promise<{ id: string; deleted: true }>;
    /** The fee a merchant's checkout would be charged, as the merchant API computes it. */
    preview(q: { merchantId: string; amount: string; currency: string }): Promise<FeePreview>;
  };
  readonly settlement: {
    set(
      req: { currency: string; settlementCurrency: string; merchantId?: string | undefined },
      w?: Write,
    ): Promise<SettlementCurrency>;
    list(): Promise<SettlementCurrency[]>;
  };
  readonly rates: {
    set(req: { base: string; quote: string; rate: string; source?: string | undefined }, w?: Write): Promise<Rate>;
    list(): Promise<Rate[]>;
    /** Removes a stored rate (an operator's pin); `replacedBy` is the feeds' rate written in its place. */
    remove(
      base: string,
      quote: string,
      w?: Write,
    ): Promise<{ base: string; quote: string; deleted: true; replacedBy: Rate | null }>;
    setPair(
      base: string,
      quote: string,
      req: { allowCross?: boolean | undefined; maxDeviationPercent?: string | undefined },
      w?: Write,
    ): Promise<RatePair>;
    pairs(): Promise<RatePair[]>;
    readonly sources: {
      set(id: string, req: RateSourceRequest, w?: Write): Promise<RateSource>;
      get(id: string): Promise<RateSource>;
      list(): Promise<RateSource[]>;
      remove(id: string, w?: Write): Promise<{ id: string; deleted: true }>;
    };
  };
  readonly audit: {
    list(q: AuditFilter & PageRequest): Promise<Page<AuditEntry>>;
  };
  readonly masterKey: {
    /** Local only: re-seals every secret under HOSTPAY_MASTER_KEY; the previous keys must be configured. */
    rotate(): Promise<MasterKeyRotation>;
  };
  /** Closes the store (local); nothing to do for the remote backend. */
  close(): Promise<void>;
}

/** What `merchant update` changes; payout limits are decimal text, the daily limit per asset. */
export interface MerchantChange {
  name?: string | undefined;
  underpaymentTolerancePercent?: string | undefined;
  /** null: the operators' default spread applies again. */
  rateSpreadPercent?: string | null | undefined;
  payoutCoolingOffHours?: number | undefined;
  payoutAutoApproveLimit?: string | undefined;
  payoutDailyLimit?: Record<string, string> | undefined;
}

/** Options of a change (defined beside the HTTP calls that send them). */
import type { Write } from './http.js';
export type { Write };

import type { Page, PageRequest } from '@hostpay/server';
export type { Page, PageRequest };

export * from './views.js';
