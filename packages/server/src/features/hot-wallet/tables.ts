import type { Migration } from '../../store/migrate.js';
import * as m015 from './migrations/015-hot-wallet.js';
import * as m021 from './migrations/021-manual-payout-txs.js';
import * as m023 from './migrations/023-hot-wallet-cancel.js';

// The hot-wallet feature's tables (added to the store's Database below) and the migrations that made them.

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

declare module '../../store/database.js' {
  interface Database {
    hot_wallets: HotWalletTable;
    hot_wallet_txs: HotWalletTxTable;
    hot_wallet_cancels: HotWalletCancelTable;
    manual_payout_txs: ManualPayoutTxTable;
  }
}

/** The migrations of its tables, each with its global version (the registry merges every feature's). */
export const hotWalletMigrations: readonly Migration[] = [
  { version: 15, name: 'hot-wallet', up: m015.up },
  { version: 21, name: 'manual-payout-txs', up: m021.up },
  { version: 23, name: 'hot-wallet-cancel', up: m023.up },
];
