import type { Checkout, Destination, Payout, Wallet } from '@hostpay/client';
import type { DecimalsAsStrings } from '@hostpay/protocol';
import type {
  TransferView,
  AuditView,
  CreatedApiKey as ServerCreatedApiKey,
  FeeTierView,
  KeyView,
  MerchantView,
  NetworkView,
  PayoutChainView,
  PostingView,
  RatePairView,
  RateSourceView,
  RateView,
  SettlementView,
  WalletSummaryView,
} from '@hostpay/server';

// Types only (erased at build): the server's view types, with exact decimals as the strings a
// lossless parse gives. One definition, so the CLI cannot drift from the API it calls.
export type { AuditFilter, FeeTierRequest, KeySettings, MasterKeyRotation, WalletFilter } from '@hostpay/server';
export type Merchant = DecimalsAsStrings<MerchantView>;
export type MerchantStatus = MerchantView['status'];
export type KeyStatus = KeyView['status'];
export type PostingKind = PostingView['kind'];
/** Kept here rather than imported: `@hostpay/server` at run time would load the store for every command. */
export const POSTING_KINDS: readonly PostingKind[] = ['credit', 'debit', 'freeze', 'unfreeze'];
export type ApiKey = KeyView;
export type CreatedApiKey = ServerCreatedApiKey;
export type WalletSummary = DecimalsAsStrings<WalletSummaryView>;
export type Posting = DecimalsAsStrings<PostingView>;
export type Network = NetworkView;
export type FeeTier = DecimalsAsStrings<FeeTierView>;
export type SettlementCurrency = Omit<SettlementView, 'updatedAt'> & { updatedAt?: string | undefined };
export type Rate = DecimalsAsStrings<RateView>;
export type RateSource = RateSourceView;
export type RatePair = DecimalsAsStrings<RatePairView>;
export type { RateSourceRequest } from '@hostpay/server';
/** The operators' default rate spread (GET/PUT /admin/v1/rate-spread), the percent as exact text. */
export interface RateSpread {
  percent: string;
  updatedAt: string | null;
}
/** Snapshots of the object are any JSON (numbers kept exact where the source had them exact). */
export type AuditEntry = AuditView;

export interface KeyRotation {
  old: ApiKey;
  new: CreatedApiKey;
}

/** A platform key may act for `merchantId` (the merchant API's `merchantId` parameter). */
export interface Grant {
  keyId: string;
  merchantId: string;
  createdAt: string;
}

/** The merchant API's wallet (interface §2.2) plus its owner. */
export type AdminWallet = Wallet & { merchantId: string };

export interface PostingResult extends Posting {
  /** True when the idempotency key was already applied: nothing changed. */
  replayed: boolean;
}

/** A checkout as operators see it: the merchant's own view (decimals as exact strings). */
export type { Checkout };

/** A transfer reported by a chain indexer (POST /admin/v1/transfers), amount as exact text. */
export type Transfer = DecimalsAsStrings<TransferView>;

/** A transfer and the checkout it pays (null when it matched none). `created`: new, not a repeat. */
export interface TransferOutcome {
  created?: boolean;
  transfer: Transfer;
  checkout: Checkout | null;
}

export type { TransferReport } from '@hostpay/server';

export interface CheckoutFilter {
  merchantId?: string | undefined;
  status?: string | undefined;
  orderId?: string | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

/** A payout as operators see it: the merchant's view (decimals as exact strings) and its merchant. */
export type AdminPayout = Payout & { merchantId: string; merchant: { id: string; name: string } };

/** The operator's network fee estimate of payouts of an asset on a chain (GET/PUT /admin/v1/payout-fees). */
export interface PayoutNetworkFee {
  chain: string;
  asset: string;
  networkFee: string;
  updatedAt: string;
}

/** The manual sender's queue (GET /admin/v1/payouts/export): approved payouts as rows, and as CSV text when asked. */
export interface PayoutExport {
  format: 'json' | 'csv';
  count: number;
  items: {
    id: string;
    merchantId: string;
    chain: string;
    network: string;
    asset: string;
    contract: string | null;
    amount: string;
    networkFee: string;
    destination: string;
    reference: string | null;
    refundOf: string | null;
    createdAt: string;
  }[];
  csv: string | null;
}
export type { Destination };

export interface PayoutFilter {
  status?: string | undefined;
  merchantId?: string | undefined;
  chain?: string | undefined;
}

/** A hot-wallet payout's transactions, their state and what an operator may do (GET /admin/v1/payouts/{id}/hot-wallet). */
export type PayoutChain = PayoutChainView;
