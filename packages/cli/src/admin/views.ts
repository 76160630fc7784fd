import type { Wallet } from '@hostpay/client';

/** The objects operator commands read and write, as the admin API returns them; decimals as exact strings. */

export type MerchantStatus = 'active' | 'suspended';
export type KeyStatus = 'active' | 'revoked';
export type PostingKind = 'credit' | 'debit' | 'freeze' | 'unfreeze';
export const POSTING_KINDS: readonly PostingKind[] = ['credit', 'debit', 'freeze', 'unfreeze'];

export interface Merchant {
  id: string;
  name: string;
  status: MerchantStatus;
  createdAt: string;
  updatedAt: string;
}

export interface KeySettings {
  scopes?: string[] | undefined;
  /** null: the server default. */
  rateLimitPerMinute?: number | null | undefined;
  /** null: never expires. */
  expiresAt?: string | null | undefined;
  /** null: any address. */
  ipAllowList?: string[] | null | undefined;
  label?: string | null | undefined;
}

/** A key as operators see it: everything but the secret. */
export interface ApiKey {
  id: string;
  merchantId: string;
  label: string | null;
  scopes: string[];
  status: KeyStatus;
  expiresAt: string | null;
  ipAllowList: string[] | null;
  rateLimitPerMinute: number | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  rotatedTo: string | null;
}

export interface CreatedApiKey extends ApiKey {
  apiKey: string;
  /** Shown once; the server keeps it only encrypted. */
  apiSecret: string;
}

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

export interface WalletSummary {
  id: string;
  merchantId: string;
  asset: string;
  chain: string;
  active: boolean;
  amount: string;
  freezeAmount: string;
  createdAt: string;
  updatedAt: string;
}

export interface WalletFilter {
  merchantId?: string | undefined;
  asset?: string | undefined;
  chain?: string | undefined;
  active?: boolean | undefined;
}

export interface Posting {
  id: string;
  walletId: string;
  kind: PostingKind;
  amount: string;
  idempotencyKey: string;
  amountAfter: string;
  freezeAmountAfter: string;
  createdAt: string;
}

export interface PostingResult extends Posting {
  /** True when the idempotency key was already applied: nothing changed. */
  replayed: boolean;
}

export interface Network {
  id: string;
  name: string;
  chainId: string;
  chainSymbol: string;
  depositEnabled: boolean;
}

export interface FeeTierRequest {
  currency: string;
  isPercentage: boolean;
  value: string;
  minValue?: string | undefined;
  onChainFee?: string | undefined;
  fromAmount?: string | undefined;
  /** Also charge fees for `currency` in this currency (same scope). */
  feeCurrency?: string | undefined;
  /** Absent: the default schedule. */
  merchantId?: string | undefined;
}

export interface FeeTier {
  id: string;
  /** null: the default schedule. */
  merchantId: string | null;
  currency: string;
  fromAmount: string;
  isPercentage: boolean;
  value: string;
  minValue: string;
  onChainFee: string;
  createdAt: string;
  updatedAt: string;
}

export interface SettlementCurrency {
  merchantId: string | null;
  currency: string;
  settlementCurrency: string;
  updatedAt?: string | undefined;
}

export interface Rate {
  base: string;
  quote: string;
  rate: string;
  source: string;
  updatedAt: string;
}

export interface AuditFilter {
  objectType?: string | undefined;
  objectId?: string | undefined;
  operator?: string | undefined;
  action?: string | undefined;
  /** ISO 8601 time: entries at or after it. */
  since?: string | undefined;
}

export interface AuditEntry {
  id: string;
  at: string;
  operator: string;
  action: string;
  objectType: string;
  objectId: string;
  /** Snapshots of the object, any JSON (numbers kept exact where the source had them exact). */
  before: unknown;
  after: unknown;
  requestId: string | null;
}

export interface MasterKeyRotation {
  resealed: number;
  alreadyCurrent: number;
}
