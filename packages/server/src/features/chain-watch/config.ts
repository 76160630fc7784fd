import type { ChainWatchTable } from './tables.js';
import type { Db } from '../../store/store.js';

/** A token the watcher follows: the asset it pays, its contract on the chain, its decimals there. */
export interface WatchedToken {
  asset: string;
  /** As the chain spells it (lower-case 0x address on EVM chains, base58 T… on TRON). */
  contract: string;
  decimals: number;
}

/** One watched chain as the watcher and the routes read it. */
export interface WatchRow extends ChainWatchTable {
  symbol: string;
  family: string;
  confirmations_required: number;
}

export const DEFAULT_POLL_MS = 4000;
export const MIN_POLL_MS = 250;
export const MAX_POLL_MS = 300_000;

/** bigint columns come back as numbers (SQLite) or strings (PostgreSQL). */
export const blockOf = (v: number | string | null): number | null => (v === null ? null : Number(v));

export function tokensOf(row: Pick<ChainWatchTable, 'tokens'>): WatchedToken[] {
  return JSON.parse(row.tokens) as WatchedToken[];
}

export function watchQuery(db: Db) {
  return db
    .selectFrom('chain_watches as w')
    .innerJoin('chains as c', 'c.id', 'w.chain_id')
    .selectAll('w')
    .select(['c.symbol as symbol', 'c.family as family', 'c.confirmations_required as confirmations_required']);
}

export async function findWatch(db: Db, symbol: string): Promise<WatchRow | undefined> {
  return watchQuery(db).where('c.symbol', '=', symbol.toUpperCase()).executeTakeFirst();
}
