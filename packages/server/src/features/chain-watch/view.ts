import { blockOf, tokensOf, type WatchRow } from './config.js';

/** What the instance running the watcher knows beyond the store (per chain). */
export interface LiveStatus {
  /** failing: `failedRounds` reached the threshold (HOSTPAY_CHAIN_WATCH_FAILING_ROUNDS). */
  state: 'watching' | 'standby' | 'error' | 'failing' | 'stopped';
  /** This instance holds the chain's lease. */
  leader: boolean;
  lastError: string | null;
  /** Node errors in a row: the loop's back-off. */
  consecutiveErrors: number;
  /** Rounds failed in a row, of any kind (node errors, "the chain moved"); 0 after a good round. */
  failedRounds: number;
}

/** Rounds failed in a row after which a watch is `failing`, unless configured. */
export const DEFAULT_FAILING_ROUNDS = 5;

export function watchView(w: WatchRow, at: string, live?: LiveStatus, failingAfter = DEFAULT_FAILING_ROUNDS) {
  const cursor = blockOf(w.cursor_block);
  const head = blockOf(w.head_block);
  const leaseLive =
    w.lease_owner !== null && w.lease_expires_at !== null && new Date(w.lease_expires_at).toISOString() > at;
  return {
    chain: w.symbol,
    kind: w.adapter_kind,
    rpcUrl: w.rpc_url_shown,
    apiKeySet: w.api_key_sealed !== null,
    networkId: w.network_id,
    tokens: tokensOf(w),
    nativeAsset: w.native_asset,
    nativeDecimals: w.native_decimals,
    confirmations: w.confirmations_required,
    pollIntervalMs: w.poll_interval_ms,
    allowPrivateRpc: w.allow_private_rpc === 1,
    enabled: w.enabled === 1,
    startBlock: blockOf(w.start_block),
    status: {
      state: stateOf(w, leaseLive, live, failingAfter),
      cursorBlock: cursor,
      headBlock: head,
      blocksBehind: cursor === null || head === null ? null : Math.max(0, head - cursor),
      lastRoundAt: w.last_round_at === null ? null : new Date(w.last_round_at).toISOString(),
      lastError: live?.leader ? live.lastError : w.last_error,
      lastErrorAt: w.last_error_at === null ? null : new Date(w.last_error_at).toISOString(),
      failedRounds: live?.leader ? live.failedRounds : w.failed_rounds,
      leaseHolder: leaseLive ? w.lease_owner : null,
    },
    createdAt: new Date(w.created_at).toISOString(),
    updatedAt: new Date(w.updated_at).toISOString(),
  };
}
export type WatchView = ReturnType<typeof watchView>;

/** This instance's own view when it watches the chain; else what the store says of whoever does. */
function stateOf(
  w: WatchRow,
  leaseLive: boolean,
  live: LiveStatus | undefined,
  failingAfter: number,
): LiveStatus['state'] {
  if (w.enabled === 0) return 'stopped';
  if (live?.leader) return live.state;
  if (!leaseLive) return 'standby';
  if (w.failed_rounds >= failingAfter) return 'failing';
  // A round that succeeds clears last_error (round.ts): it is set exactly when the last one failed.
  return w.last_error !== null ? 'error' : 'watching';
}
