import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import type { ChainPort } from '../checkouts/watch-targets.js';
import type { Resolver } from '../../outbound/guard.js';
import { findWatch, watchQuery, type WatchRow } from './config.js';
import type { EvmWatchMetrics } from './metrics.js';
import { openRpc, type Rpc } from './adapters/evm/rpc.js';
import { scrubMessage } from './node-url.js';
import { ChainMoved, holdLease, LeaseLost, runRound, type ChainState, type RoundResult } from './round.js';
import { rpcOwner } from './node-url.js';
import type { LiveStatus } from './service.js';

export interface WatcherOptions {
  store: Store;
  box: SecretBox;
  /** The checkouts feature's port for chain watchers (reports, retractions, what to watch). */
  checkouts: ChainPort;
  metrics: EvmWatchMetrics;
  sandbox: boolean;
  resolve: Resolver;
  now: () => number;
  log: { warn(msg: string): void; info?(msg: string): void };
  /** How long a chain stays with this instance without a round, ms. Default 10,000 (at least 3 polls). */
  leaseMs?: number;
  /** How often the list of watched chains is read again, ms. Default 5,000. */
  reloadMs?: number;
  /** Deadline of one RPC call, ms. Default 15,000. */
  rpcTimeoutMs?: number;
  /** Most blocks per eth_getLogs call. Default 2,000. */
  maxLogBlocks?: number;
  /** Blocks fetched with their transactions per round when the native coin is watched. Default 25. */
  nativeBlocks?: number;
  /** Longest back-off after failed rounds, ms. Default 60,000. */
  maxBackoffMs?: number;
  beforeCursorSave?: () => void | Promise<void>;
}

export type RoundOutcome =
  | ({ leader: true } & RoundResult)
  | { leader: false; reason: 'not_watched' | 'disabled' | 'standby' | 'chain_moved' };

interface ChainLoop {
  symbol: string;
  timer: NodeJS.Timeout | undefined;
  running: Promise<unknown> | undefined;
  scan: ChainState;
  rpc: Rpc | undefined;
  rpcKey: string;
  live: LiveStatus;
}

/**
 * The EVM watcher of one instance. Every watched chain gets its own loop (a slow node delays only
 * its chain): take or renew the chain's lease, run a round, wait the poll interval — or, after a
 * failure, a back-off that doubles up to a minute. A lease (row with an owner and an expiry, taken
 * with one conditional UPDATE on SQLite and PostgreSQL alike) keeps every chain with one instance
 * at a time; when that instance dies, another takes the chain once the lease expires. Failures are
 * caught, counted and shown (metrics, /readyz, the watch's status); they never leave the loop.
 */
export class EvmWatcher {
  readonly owner = `evw_${randomBytes(8).toString('hex')}`;
  readonly #options: WatcherOptions &
    Required<
      Pick<WatcherOptions, 'leaseMs' | 'reloadMs' | 'rpcTimeoutMs' | 'maxLogBlocks' | 'nativeBlocks' | 'maxBackoffMs'>
    >;
  readonly #loops = new Map<string, ChainLoop>();
  #reload: NodeJS.Timeout | undefined;
  #started = false;

  constructor(opts: WatcherOptions) {
    this.#options = {
      leaseMs: 10_000,
      reloadMs: 5000,
      rpcTimeoutMs: 15_000,
      maxLogBlocks: 2000,
      nativeBlocks: 25,
      maxBackoffMs: 60_000,
      ...opts,
    };
  }

  /** Starts following the watched chains (and keeps reading which they are). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    const again = () => {
      this.#reload = setTimeout(() => void this.#sync().finally(again), this.#options.reloadMs);
      this.#reload.unref();
    };
    void this.#sync().finally(again);
  }

  /** A watch changed on this instance: look at the list now. */
  wake(): void {
    if (this.#started) void this.#sync();
  }

  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#reload);
    const loops = [...this.#loops.values()];
    this.#loops.clear();
    for (const l of loops) clearTimeout(l.timer);
    await Promise.allSettled(loops.map((l) => l.running));
    for (const l of loops) {
      l.rpc?.close();
      await this.#release(l.symbol).catch(() => undefined);
      this.#options.metrics.leader.set({ chain: l.symbol }, 0);
    }
  }

  /** What this instance knows about a chain it has a loop for. */
  live(symbol: string): LiveStatus | undefined {
    return this.#loops.get(symbol.toUpperCase())?.live;
  }

  /** Every chain this instance follows, for /readyz. */
  statuses(): { chain: string; state: LiveStatus['state']; leader: boolean; lastError: string | null }[] {
    return [...this.#loops.values()].map((l) => ({
      chain: l.symbol,
      state: l.live.state,
      leader: l.live.leader,
      lastError: l.live.lastError,
    }));
  }

  /**
   * One round for one chain, now (the loops call it; tests drive it by hand). Errors are thrown
   * to the caller; the loops catch them.
   */
  async round(symbol: string): Promise<RoundOutcome> {
    const loop = this.#loop(symbol.toUpperCase());
    const w = await findWatch(this.#options.store.db, loop.symbol);
    if (w === undefined) return { leader: false, reason: 'not_watched' };
    if (w.enabled === 0) {
      loop.live = { ...loop.live, state: 'stopped', leader: false };
      return { leader: false, reason: 'disabled' };
    }
    try {
      await this.#options.store.writeTransaction((trx) => holdLease(trx, this.#deps(w), w.chain_id));
    } catch (err) {
      if (!(err instanceof LeaseLost)) throw err;
      loop.live = { ...loop.live, state: 'standby', leader: false };
      this.#options.metrics.leader.set({ chain: loop.symbol }, 0);
      return { leader: false, reason: 'standby' };
    }
    loop.live.leader = true;
    this.#options.metrics.leader.set({ chain: loop.symbol }, 1);
    const rpcUrl = this.#options.box.open(w.rpc_url_sealed, rpcOwner(w.chain_id)).toString('utf8');
    try {
      const rpc = await this.#rpc(loop, w, rpcUrl);
      const result = await runRound(
        {
          ...this.#deps(w),
          store: this.#options.store,
          checkouts: this.#options.checkouts,
          metrics: this.#options.metrics,
          log: this.#options.log,
          beforeCursorSave: this.#options.beforeCursorSave,
        },
        w,
        rpc,
        loop.scan,
      );
      loop.live = { state: 'watching', leader: true, lastError: null, consecutiveErrors: 0 };
      return { leader: true, ...result };
    } catch (err) {
      if (err instanceof ChainMoved) return { leader: false, reason: 'chain_moved' };
      if (err instanceof LeaseLost) {
        loop.live = { ...loop.live, state: 'standby', leader: false };
        return { leader: false, reason: 'standby' };
      }
      const message = scrubMessage(
        err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.message) : String(err),
        rpcUrl,
      );
      loop.live = {
        state: 'error',
        leader: true,
        lastError: message,
        consecutiveErrors: loop.live.consecutiveErrors + 1,
      };
      this.#options.metrics.rpcErrors.inc({ chain: loop.symbol });
      // A broken connection is opened afresh next time.
      loop.rpc?.close();
      loop.rpc = undefined;
      await this.#options.store
        .writeTransaction((trx) =>
          trx
            .updateTable('evm_watches')
            .set({ last_error: message, last_error_at: new Date(this.#options.now()).toISOString() })
            .where('chain_id', '=', w.chain_id)
            .where('lease_owner', '=', this.owner)
            .execute(),
        )
        .catch(() => undefined);
      throw new Error(message);
    }
  }

  /** The lease outlives three polls, so a chain polled slowly is not passed around between rounds. */
  #deps(w: WatchRow) {
    return {
      owner: this.owner,
      now: this.#options.now,
      leaseMs: Math.max(this.#options.leaseMs, 3 * w.poll_interval_ms),
    };
  }

  #loop(symbol: string): ChainLoop {
    let loop = this.#loops.get(symbol);
    if (loop === undefined) {
      loop = {
        symbol,
        timer: undefined,
        running: undefined,
        scan: {
          chunk: Math.min(500, this.#options.maxLogBlocks),
          maxChunk: this.#options.maxLogBlocks,
          nativeBlocks: this.#options.nativeBlocks,
        },
        rpc: undefined,
        rpcKey: '',
        live: { state: 'standby', leader: false, lastError: null, consecutiveErrors: 0 },
      };
      this.#loops.set(symbol, loop);
    }
    return loop;
  }

  async #rpc(loop: ChainLoop, w: WatchRow, url: string): Promise<Rpc> {
    const key = `${w.rpc_url_sealed}|${w.allow_private_rpc}`;
    if (loop.rpc !== undefined && loop.rpcKey === key) return loop.rpc;
    loop.rpc?.close();
    loop.rpc = await openRpc(
      url,
      { sandbox: this.#options.sandbox, allowPrivate: w.allow_private_rpc === 1, resolve: this.#options.resolve },
      this.#options.rpcTimeoutMs,
    );
    loop.rpcKey = key;
    return loop.rpc;
  }

  async #release(symbol: string): Promise<void> {
    const chain = await this.#options.store.db
      .selectFrom('chains')
      .select('id')
      .where('symbol', '=', symbol)
      .executeTakeFirst();
    if (chain === undefined) return;
    await this.#options.store.writeTransaction((trx) =>
      trx
        .updateTable('evm_watches')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('chain_id', '=', chain.id)
        .where('lease_owner', '=', this.owner)
        .execute(),
    );
  }

  /** Starts a loop for every watched chain without one; ends the loops of chains no longer watched. */
  async #sync(): Promise<void> {
    if (!this.#started) return;
    let symbols: string[];
    try {
      symbols = (await watchQuery(this.#options.store.db).where('w.enabled', '=', 1).execute()).map((w) => w.symbol);
    } catch (err) {
      this.#options.log.warn(`evm watch: cannot read the watched chains: ${(err as Error).message}`);
      return;
    }
    for (const symbol of symbols) {
      const loop = this.#loop(symbol);
      if (loop.timer === undefined && loop.running === undefined) this.#schedule(loop, 0);
    }
    for (const [symbol, loop] of this.#loops) {
      if (symbols.includes(symbol)) continue;
      clearTimeout(loop.timer);
      this.#loops.delete(symbol);
      loop.rpc?.close();
      this.#options.metrics.leader.set({ chain: symbol }, 0);
    }
  }

  #schedule(loop: ChainLoop, ms: number): void {
    loop.timer = setTimeout(() => {
      loop.timer = undefined;
      loop.running = this.#turn(loop).then((next) => {
        loop.running = undefined;
        if (this.#started && this.#loops.get(loop.symbol) === loop) this.#schedule(loop, next);
      });
    }, ms);
    loop.timer.unref();
  }

  /** One turn of a chain's loop; returns how long to wait before the next. */
  async #turn(loop: ChainLoop): Promise<number> {
    const poll =
      (await findWatch(this.#options.store.db, loop.symbol).catch(() => undefined))?.poll_interval_ms ??
      this.#options.reloadMs;
    try {
      const r = await this.round(loop.symbol);
      // Behind the head: the next range at once.
      return r.leader && !r.caughtUp ? 0 : poll;
    } catch (err) {
      const backoff = Math.min(this.#options.maxBackoffMs, poll * 2 ** Math.min(loop.live.consecutiveErrors, 8));
      this.#options.log.warn(
        `evm watch ${loop.symbol}: ${(err as Error).message}; next try in ${Math.round(backoff / 1000)} s`,
      );
      return backoff;
    }
  }
}
