import type { Store } from '../../store/store.js';
import type { ChainPort } from '../checkouts/watch-targets.js';
import type { ChainWatchMetrics } from './metrics.js';
import type { PayoutChainPort } from './payout-port.js';

// Apart from round.ts so that reports.ts, which round.ts imports, can name it without a loop.

/** What a watch round works with: the store, the ports it reports to, its lease and clock. */
export interface RoundDeps {
  store: Store;
  /** What the watcher reads of and reports to the checkouts feature. */
  checkouts: ChainPort;
  /** The payout sender's port: the watcher counts its transactions' confirmations. */
  payouts?: readonly PayoutChainPort[] | undefined;
  metrics: ChainWatchMetrics;
  owner: string;
  now: () => number;
  leaseMs: number;
  log: { warn(msg: string): void };
  /** Tests: runs after the transfers are reported and before the cursor is saved (a crash there). */
  beforeCursorSave?: (() => void | Promise<void>) | undefined;
}
