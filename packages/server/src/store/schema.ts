import type { Generated } from 'kysely';

/**
 * Table types. Money columns are decimal text (SQLite TEXT; NUMERIC on PostgreSQL later), times
 * are ISO 8601 UTC strings with milliseconds, booleans are 0/1 integers so both dialects agree.
 */
export interface MerchantTable {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  created_at: string;
  updated_at: string;
}

export interface ApiKeyTable {
  id: string;
  merchant_id: string;
  /** AES-256-GCM sealed secret: base64 of iv(12) | tag(16) | ciphertext. */
  secret_sealed: string;
  scopes: string; // JSON array
  status: 'active' | 'revoked';
  expires_at: string | null;
  ip_allow_list: string | null; // JSON array of CIDR strings
  rate_limit_per_minute: number | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** Set on a key replaced by rotation: the new key's id. */
  rotated_to: string | null;
  label: string | null;
  /** 1: version-1 signatures are refused for this key (v4). */
  require_signature_v2: number;
}

export interface AuditLogTable {
  id: string;
  at: string;
  /** Name of the operator token (or `cli:<user>`, `demo`) that made the change. */
  operator: string;
  action: string;
  object_type: string;
  object_id: string;
  /** JSON of the object before and after, never containing a secret. */
  before: string | null;
  after: string | null;
  request_id: string | null;
}

export interface AdminIdempotencyTable {
  operator: string;
  key: string;
  request_hash: string;
  status: number;
  body: string;
  created_at: string;
}

export interface ServerSecretTable {
  name: string;
  sealed: string;
  created_at: string;
}

/** A platform key may act for the sub-merchants an operator granted it. */
export interface MerchantGrantTable {
  key_id: string;
  merchant_id: string;
  created_at: string;
}

export interface AssetTable {
  id: string;
  symbol: string;
  name: string;
  image: string;
  /** Fractional digits of the currency: fee rounding precision. */
  decimals: number;
  is_crypto: number;
}

export interface ChainTable {
  id: string;
  symbol: string;
  name: string;
}

export interface NetworkTable {
  id: string;
  asset_id: string;
  chain_id: string;
  name: string;
  deposit_enabled: number;
}

export interface WalletTable {
  id: string;
  merchant_id: string;
  asset_id: string;
  chain_id: string;
  active: number;
  amount: string;
  freeze_amount: string;
  created_at: string;
  updated_at: string;
}

export type PostingKind = 'credit' | 'debit' | 'freeze' | 'unfreeze';

export interface LedgerPostingTable {
  id: string;
  wallet_id: string;
  kind: PostingKind;
  amount: string;
  idempotency_key: string;
  amount_after: string;
  freeze_amount_after: string;
  created_at: string;
}

export interface FeeScheduleTable {
  id: string;
  /** '' for the operator's default schedule, else the merchant's override. */
  merchant_id: string;
  currency: string;
  /** Tier lower bound (inclusive), in the asked currency. */
  from_amount: string;
  is_percentage: number;
  value: string;
  min_value: string;
  on_chain_fee: string;
  created_at: string;
  updated_at: string;
}

export interface SettlementCurrencyTable {
  /** '' for the default, else the merchant's own choice. */
  merchant_id: string;
  currency: string;
  settlement_currency: string;
  updated_at: string;
}

export interface RateTable {
  base: string;
  quote: string;
  /** 1 base = rate quote. */
  rate: string;
  source: string;
  updated_at: string;
}

export interface MigrationTable {
  version: number;
  name: string;
  applied_at: string;
}

export interface Database {
  merchants: MerchantTable;
  api_keys: ApiKeyTable;
  merchant_grants: MerchantGrantTable;
  assets: AssetTable;
  chains: ChainTable;
  networks: NetworkTable;
  wallets: WalletTable;
  ledger_postings: LedgerPostingTable;
  fee_schedules: FeeScheduleTable;
  settlement_currencies: SettlementCurrencyTable;
  rates: RateTable;
  hostpay_migrations: MigrationTable;
  audit_log: AuditLogTable;
  admin_idempotency: AdminIdempotencyTable;
  server_secrets: ServerSecretTable;
}

export type { Generated };
