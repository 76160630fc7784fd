import type { Migration } from '../../store/migrate.js';
import * as m002 from './migrations/002-reference-catalog.js';
import * as m009 from './migrations/009-chain-explorer.js';

// The catalog feature's tables (added to the store's Database below) and the migrations that made them.

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

declare module '../../store/database.js' {
  interface Database {
    assets: AssetTable;
    chains: ChainTable;
    networks: NetworkTable;
    account_keys: AccountKeyTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const catalogMigrations: readonly Migration[] = [
  { version: 2, name: 'reference-catalog', up: m002.up },
  { version: 9, name: 'chain-explorer', up: m009.up },
];
