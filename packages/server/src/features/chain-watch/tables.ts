import type { Migration } from '../../store/migrate.js';
import * as m007 from './migrations/007-evm-watch.js';
import * as m018 from './migrations/018-chain-watch.js';
import * as m025 from './migrations/025-chain-watch-failures.js';

// The chain-watch feature's tables (added to the store's Database below) and the migrations that made them.

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

declare module '../../store/database.js' {
  interface Database {
    chain_watches: ChainWatchTable;
    chain_watch_blocks: ChainWatchBlockTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const chainWatchMigrations: readonly Migration[] = [
  { version: 7, name: 'evm-watch', up: m007.up },
  { version: 18, name: 'chain-watch', up: m018.up },
  { version: 25, name: 'chain-watch-failures', up: m025.up },
];
