import type { Generated } from 'kysely';

/**
 * Table types. Money columns are decimal text (SQLite TEXT; NUMERIC on PostgreSQL later), times
 * are ISO 8601 UTC strings with milliseconds, booleans are 0/1 integers so both dialects agree.
 */
export interface MerchantTable {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  /** Decimal text, 0..5: how far below amountDue a payment still completes a checkout. */
  underpayment_tolerance_percent: string;
  /** Hours a new payout destination cools off before use, 0..168 (migration 014). */
  payout_cooling_off_hours: number;
  /** Decimal text: a payout whose total is at most this (in its asset) is approved without an operator. */
  payout_auto_approve_limit: string;
  /** JSON object, asset symbol → decimal text: the rolling 24 h payout total allowed per asset. */
  payout_daily_limit: string;
  created_at: string;
  updated_at: string;
  /** Decimal text, 0..10: the merchant's own rate spread (percent); null: the default (pricing_settings). */
  rate_spread_percent: string | null;
  /** What the payment page shows instead of `name`; null: `name` (migration 020). */
  display_name: string | null;
  /** The payment page's logo: an https URL or a small data:image URL (merchants/settings.ts); null: none. */
  logo_url: string | null;
  /** The successUrl / cancelUrl a checkout gets when its request names none; null: none. */
  default_success_url: string | null;
  default_cancel_url: string | null;
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
  /** Who holds a pending claim (`<instance id>/<boot id>`) and until when; null before v10. */
  owner: string | null;
  lease_until: string | null;
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
  active: number;
}

export interface ChainTable {
  id: string;
  symbol: string;
  name: string;
  /** How addresses are derived and spelled: 'btc' | 'evm' | 'tron'. */
  family: string;
  /** 'mainnet' | 'testnet' | 'regtest'. */
  network_type: string;
  confirmations_required: number;
  /** The account key deposit addresses are derived from; null: no checkout can use this chain. */
  account_key_id: string | null;
  active: number;
  /** https URL template with `{tx}`: the payment page links each payment there; null: no link. */
  explorer_tx_url: string | null;
}

export interface NetworkTable {
  id: string;
  asset_id: string;
  chain_id: string;
  name: string;
  deposit_enabled: number;
  /** Token contract (EVM/TRON) or null for the chain's native coin. */
  token_contract: string | null;
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
  /** When the source answered (an operator's rate: when it was set). */
  fetched_at: string | null;
  /** How long after fetched_at the rate may be quoted; null: no limit (an operator's pinned rate). */
  max_age_seconds: number | null;
  /** 1: set by an operator, never overwritten by a rate feed until removed. */
  pinned: number;
}

export interface AccountKeyTable {
  id: string;
  family: string;
  network_type: string;
  /**
   * The key in its xpub/tpub spelling, sealed (owner `accountKeyOwner(id)`): public in the BIP-32
   * sense, but whoever holds it links every deposit address. Plaintext only in a row an earlier
   * release wrote, until the services first open the store (migration 011).
   */
  xpub_sealed: string;
  /** SHA-256 of the xpub/tpub text: the unique lookup (one key, one row, one counter). Null: not sealed yet. */
  xpub_hash: string | null;
  /** First 12 and last 6 characters, for the operator's chain views. */
  xpub_preview: string | null;
  /** BIP-32 fingerprint (HASH160 of the public key, 4 bytes hex). */
  xpub_fingerprint: string | null;
  next_index: number;
  created_at: string;
}

export interface DepositAddressTable {
  id: string;
  chain_id: string;
  account_key_id: string;
  derivation_index: number;
  address: string;
  checkout_id: string | null;
  option_id: string | null;
  created_at: string;
}

export interface CheckoutTable {
  id: string;
  merchant_id: string;
  status: string;
  reason: string | null;
  amount: string;
  currency: string;
  /** JSON: the fee preview's fields for this amount and currency, exact decimals as strings. */
  fee: string;
  order_id: string | null;
  description: string | null;
  /** JSON object of string pairs. */
  metadata: string;
  success_url: string | null;
  cancel_url: string | null;
  tolerance_percent: string;
  settled_option_id: string | null;
  credited_posting_id: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface CheckoutOptionTable {
  id: string;
  checkout_id: string;
  position: number;
  asset_id: string;
  chain_id: string;
  network_id: string;
  address: string;
  amount_due: string;
  rate: string;
  fee_in_asset: string;
  net_amount: string;
  confirmations_required: number;
  /** The quote's source (`identity` when the asset is the currency); null: created before v16. */
  rate_source: string | null;
  /** When the quote was made (its source answered). */
  rate_at: string | null;
  /** The spread (percent, decimal text) `rate` includes. */
  rate_spread_percent: string | null;
}

/** Operator settings of pricing, one row per name (`rate_spread_percent`: the default spread). */
export interface PricingSettingTable {
  name: string;
  value: string;
  updated_at: string;
}

export interface TransferTable {
  id: string;
  chain_id: string;
  tx_hash: string;
  log_index: number;
  to_address: string;
  asset_id: string;
  amount: string;
  confirmations: number;
  block_time: string | null;
  block_hash: string | null;
  checkout_id: string | null;
  option_id: string | null;
  retracted: number;
  /** Why operators should look at it: 'unmatched' | 'extra_payment' | 'wrong_asset' | 'paid_late' | null. */
  exception: string | null;
  detected_at: string;
  updated_at: string;
}

export interface CheckoutTimelineTable {
  checkout_id: string;
  seq: number;
  status: string;
  reason: string | null;
  at: string;
}

export interface EventSequenceTable {
  merchant_id: string;
  last_sequence: number;
}

export interface EventTable {
  id: string;
  merchant_id: string;
  sequence: number;
  type: string;
  /** JSON text of `{object}` (the event's `data`), exact decimals as JSON numbers. */
  data: string;
  created_at: string;
  /** The checkout the event is about (its checkout.* events, its settlement's and refund's events); migration 020. */
  checkout_id: string | null;
}

export interface WebhookEndpointTable {
  id: string;
  merchant_id: string;
  /** The URL, sealed (owner `urlOwner(id)`); plaintext only in a row an earlier release wrote (migration 011). */
  url_sealed: string;
  /** The URL masked (outbound/mask-url.ts): what lists, logs and events show. Null: not sealed yet. */
  url_shown: string | null;
  description: string | null;
  /** JSON array text of event types; '[]' means every type. */
  enabled_events: string;
  disabled: number;
  /** 'merchant' | 'gone' (410) | 'failing' (5 days without a success) | null. */
  disabled_reason: string | null;
  disabled_at: string | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  last_success_at: string | null;
  failing_since: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  endpoint_id: string;
  merchant_id: string;
  event_id: string;
  sequence: number;
  /** 'pending' | 'succeeded' | 'failed'. */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptTable {
  id: string;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_body: string | null;
  succeeded: number;
}

/** A rate feed an operator configured (features/rates). */
export interface RateSourceTable {
  id: string;
  kind: string;
  /** Null: the provider's own address. */
  base_url_sealed: string | null;
  base_url_shown: string | null;
  /** JSON array text: ["BTC/EUR", …]. */
  pairs: string;
  refresh_seconds: number;
  max_age_seconds: number;
  enabled: number;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  last_latency_ms: number | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A source's last answer for one pair (1 base = rate quote). */
export interface RateObservationTable {
  source_id: string;
  base: string;
  quote: string;
  rate: string;
  fetched_at: string;
}

/** Per-pair rules of the rate feeds. */
export interface RatePairTable {
  base: string;
  quote: string;
  allow_cross: number;
  /** Percent; null: the default. */
  max_deviation_percent: string | null;
  updated_at: string;
}

export interface ChainWatchTable {
  chain_id: string;
  /** The adapter that talks to the node (features/chain-watch/adapters): evm-rpc, esplora, bitcoin-core, tron-http. */
  adapter_kind: string;
  /** The node URL (every kind; the column kept its EVM-era name), sealed; shown masked. */
  rpc_url_sealed: string;
  rpc_url_shown: string;
  /** An API key or credentials for the node, sealed; null: none. */
  api_key_sealed: string | null;
  tokens: string;
  native_asset: string | null;
  native_decimals: number;
  poll_interval_ms: number;
  allow_private_rpc: number;
  enabled: number;
  /** The network the node must serve: EVM chain id in decimal, or the genesis block hash; null: learnt from the node on the first round. */
  network_id: string | null;
  /** bigint columns: numbers on SQLite, strings on PostgreSQL (read through Number()). */
  start_block: number | string | null;
  cursor_block: number | string | null;
  head_block: number | string | null;
  last_round_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
  /** Rounds failed in a row (node errors, blocks that do not link up); 0 after a good round. */
  failed_rounds: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ChainWatchBlockTable {
  chain_id: string;
  number: number | string;
  hash: string;
}

export interface HotWalletTable {
  chain_id: string;
  address: string;
  key_sealed: string;
  next_nonce: number | string | null;
  last_error: string | null;
  last_error_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export type HotWalletTxStatus = 'signed' | 'broadcast' | 'mined' | 'confirmed' | 'replaced' | 'failed';

export interface HotWalletTxTable {
  id: string;
  payout_id: string;
  chain_id: string;
  nonce: number | string;
  raw: string;
  tx_hash: string;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  gas_limit: string;
  status: HotWalletTxStatus;
  block_hash: string | null;
  block_number: number | string | null;
  marked_sent: number;
  confirmations: number;
  /** The fee the receipt shows (native coin, exact decimal text), for a native transfer; null otherwise. */
  network_fee: string | null;
  replaced_by: string | null;
  created_at: string;
  broadcast_at: string | null;
  /** When the node was first found without it (not pooled, not mined, nonce unused) and refused it again (migration 022). */
  forgotten_at?: string | null | undefined;
  /** The node's answer to the bytes sent again, while forgotten. */
  node_error?: string | null | undefined;
}

export type HotWalletCancelStatus = 'requested' | 'sent' | 'canceled' | 'lost';

/** An operator's cancel by replacement of a hot-wallet payout (migration 022). */
export interface HotWalletCancelTable {
  payout_id: string;
  chain_id: string;
  nonce: number | string;
  status: HotWalletCancelStatus;
  tx_id: string | null;
  requested_by: string;
  requested_at: string;
  resolved_at: string | null;
}

/**
 * A transaction an operator reported for a manual payout, checked to pay it and seen mined
 * (migration 021): the chain watcher counts its confirmations from its block.
 */
export interface ManualPayoutTxTable {
  payout_id: string;
  chain_id: string;
  tx_hash: string;
  block_number: number | string;
  block_hash: string;
  confirmations: number;
  status: 'mined' | 'confirmed';
  mined_at: string;
}

export interface ConsoleSessionTable {
  /** SHA-256 hex of the session id (the cookie value); the id itself is never stored. */
  id_hash: string;
  operator: string;
  /** First 16 hex of SHA-256(SHA-256(operator token)): a changed or removed token ends its sessions. */
  token_fingerprint: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end of the session, however active. */
  expires_at: string;
}

/** A payer's refund link (migration 017, features/refunds): the token itself is never stored. */
export interface RefundLinkTable {
  id: string;
  /** SHA-256 hex of the token in the link's URL. */
  token_hash: string;
  checkout_id: string;
  merchant_id: string;
  /** Decimal text in the checkout's refund asset; null: whatever is refundable when the payer submits. */
  amount: string | null;
  expires_at: string;
  used_at: string | null;
  /** The refund (payout) the payer's address requested. */
  payout_id: string | null;
  created_at: string;
}

export interface MigrationTable {
  version: number;
  name: string;
  applied_at: string;
}

/** A merchant's payout address book (spec/payouts.md, "Destination"). */
export interface PayoutDestinationTable {
  id: string;
  merchant_id: string;
  chain_id: string;
  address: string;
  label: string | null;
  /** 'cooling_off' | 'active' | 'revoked'; cooling_off reads as active once active_from has passed. */
  status: string;
  active_from: string;
  created_at: string;
  updated_at: string;
}

export interface PayoutTable {
  id: string;
  merchant_id: string;
  wallet_id: string;
  asset_id: string;
  chain_id: string;
  network_id: string;
  status: string;
  reason: string | null;
  amount: string;
  network_fee: string;
  total: string;
  /** What this payout holds frozen in its wallet now: total until a final move, then 0. */
  frozen: string;
  destination: string;
  destination_id: string | null;
  /** 'book' (the merchant's address book) | 'payer' (a refund link's address). */
  destination_source: string;
  reference: string | null;
  refund_of: string | null;
  tx_hash: string | null;
  confirmations: number;
  created_at: string;
  updated_at: string;
}

export interface PayoutTimelineTable {
  payout_id: string;
  seq: number;
  status: string;
  reason: string | null;
  /** 'merchant' | 'operator' | 'system'. */
  by: string;
  at: string;
}

/** The operators' estimate of a payout's network fee, in the asset paid out (default 0). */
export interface PayoutNetworkFeeTable {
  chain_id: string;
  asset_id: string;
  fee: string;
  updated_at: string;
}

/** A merchant dashboard user (migration 019). */
export interface MerchantUserTable {
  id: string;
  merchant_id: string;
  /** Lower-cased. */
  email: string;
  role: 'owner' | 'admin' | 'developer' | 'viewer';
  /** argon2id PHC string (parameters included). */
  password_hash: string;
  /** The TOTP secret (base32) sealed under the master key, owner id = user id; null until enrolled. */
  totp_secret_sealed: string | null;
  totp_confirmed: number;
  /** The last 30 s step a code was accepted for: that step and earlier ones are refused (replay). */
  totp_last_step: number | null;
  failed_sign_ins: number;
  locked_until: string | null;
  created_at: string;
  updated_at: string;
  last_sign_in_at: string | null;
}

export interface MerchantUserRecoveryCodeTable {
  user_id: string;
  code_hash: string;
  used_at: string | null;
}

/** Invitations and password-reset links (one-time tokens, SHA-256 kept). */
export interface MerchantUserLinkTable {
  id: string;
  kind: 'invitation' | 'reset';
  token_hash: string;
  merchant_id: string;
  email: string;
  role: string;
  /** The user a reset link is for; null for invitations. */
  user_id: string | null;
  /** `user:<id>` or `operator:<name>`. */
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface MerchantSessionTable {
  id_hash: string;
  user_id: string;
  /** 'totp': password checked, awaiting the code; 'enrol': awaiting TOTP enrolment; 'full'. */
  stage: 'totp' | 'enrol' | 'full';
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface MerchantSecurityLogTable {
  id: string;
  merchant_id: string;
  at: string;
  user_id: string | null;
  user_email: string | null;
  action: string;
  ip: string | null;
  /** JSON object or null. */
  details: string | null;
}

/**
 * Signatures of state-changing merchant requests already accepted (v24): a second use is a replay
 * (auth/single-use.ts). Kept until the signature's timestamp leaves the acceptance window; only
 * used without Redis (or while it is down).
 */
export interface UsedSignatureTable {
  key_id: string;
  /** The lowercase hex signature: an HMAC over the timestamp, so it names the timestamp too. */
  signature: string;
  /** Epoch ms after which the entry may go (bigint: a number on SQLite, a string on PostgreSQL). */
  expires_ms: number | string;
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
  pricing_settings: PricingSettingTable;
  hostpay_migrations: MigrationTable;
  audit_log: AuditLogTable;
  admin_idempotency: AdminIdempotencyTable;
  used_signatures: UsedSignatureTable;
  server_secrets: ServerSecretTable;
  account_keys: AccountKeyTable;
  deposit_addresses: DepositAddressTable;
  checkouts: CheckoutTable;
  checkout_options: CheckoutOptionTable;
  transfers: TransferTable;
  checkout_timeline: CheckoutTimelineTable;
  event_sequences: EventSequenceTable;
  events: EventTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  chain_watches: ChainWatchTable;
  chain_watch_blocks: ChainWatchBlockTable;
  console_sessions: ConsoleSessionTable;
  rate_sources: RateSourceTable;
  rate_observations: RateObservationTable;
  rate_pairs: RatePairTable;
  payout_destinations: PayoutDestinationTable;
  payouts: PayoutTable;
  payout_timeline: PayoutTimelineTable;
  payout_network_fees: PayoutNetworkFeeTable;
  refund_links: RefundLinkTable;
  hot_wallets: HotWalletTable;
  hot_wallet_txs: HotWalletTxTable;
  hot_wallet_cancels: HotWalletCancelTable;
  manual_payout_txs: ManualPayoutTxTable;
  merchant_users: MerchantUserTable;
  merchant_user_recovery_codes: MerchantUserRecoveryCodeTable;
  merchant_user_links: MerchantUserLinkTable;
  merchant_sessions: MerchantSessionTable;
  merchant_security_log: MerchantSecurityLogTable;
}

export type { Generated };
