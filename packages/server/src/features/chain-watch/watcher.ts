import { randomBytes } from 'node:crypto';
import {
  backoff,
  holdLease,
  LeasedLoops,
  LeaseLost,
  mayHoldLeases,
  releaseLeases,
} from '../../cluster/leased-loops.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Resolver } from '../../outbound/guard.js';
import type { Store } from '../../store/store.js';
import type { ChainPort } from '../checkouts/watch-targets.js';
import type { ChainAdapter } from './adapter.js';
import { ADAPTERS, isAdapterKind, type AdapterOptions } from './adapters/index.js';
import { findWatch, watchQuery, type WatchRow } from './config.js';
import type { ChainWatchMetrics } from './metrics.js';
import { apiKeyOwner, checkedRpcAddresses, rpcFetch, rpcOwner } from './node-url.js';
import { ChainMoved, runRound, type RoundResult } from './round.js';
import type { PayoutChainPort } from './payout-port.js';
import type { LiveStatus } from './service.js';
import { DEFAULT_FAILING_ROUNDS } from './view.js';
import { afterFailure, masked } from './health.js';

export interface WatcherOptions {
  store: Store;
  box: SecretBox;
  /** The checkouts feature's port for chain watchers (reports, retractions, what to watch). */
  checkouts: ChainPort;
  /** The payout senders' ports (the `payoutConfirmations` contributions: hot-wallet's): payout confirmations. */
  payouts?: () => readonly PayoutChainPort[];
  metrics: ChainWatchMetrics;
  sandbox: boolean;
  resolve: Resolver;
  now: () => number;
  log: { warn(msg: string): void; info?(msg: string): void };
  /** How long a chain stays with this instance without a round, ms. Default 10,000 (at least 3 polls). */
  leaseMs?: number;
  /** How often the list of watched chains is read again, ms. Default 5,000. */
  reloadMs?: number;
  /** Deadline of one call to a node, ms. Default 15,000. */
  rpcTimeoutMs?: number;
  /** EVM: most blocks per eth_getLogs call. Default 2,000. */
  maxLogBlocks?: number;
  /** EVM: blocks fetched with their transactions per round when the native coin is watched. Default 25. */
  nativeBlocks?: number;
  /** Longest back-off after failed rounds, ms. Default 60,000. */
  maxBackoffMs?: number;
  /** Rounds failed in a row after which a watch is `failing` (HOSTPAY_CHAIN_WATCH_FAILING_ROUNDS). Default 5. */
  failingAfter?: number;
  beforeCursorSave?: () => void | Promise<void>;
}

export type RoundOutcome =
  | ({ leader: true } & RoundResult)
  | { leader: false; reason: 'not_watched' | 'disabled' | 'standby' | 'chain_moved' };

interface ChainState {
  adapter: ChainAdapter | undefined;
  adapterKey: string;
  live: LiveStatus;
}

const LEASES = { table: 'chain_watches', key: 'chain_id' } as const;

/**
 * The chain watcher of one instance, the same for every chain family: every watched chain gets
 * its own loop (cluster/leased-loops.ts: a slow node delays only its chain) that takes or renews
 * the chain's lease, runs a round through the chain's adapter, and waits the poll interval — or,
 * after a failure, a back-off that doubles up to a minute. The lease keeps every chain with one
 * instance at a time; when that instance dies, another takes the chain once the lease expires.
 * Failures are caught, counted and shown (metrics, /readyz, the watch's status), masked.
 */
export class ChainWatcher {
  readonly owner = `cwt_${randomBytes(8).toString('hex')}`;
  readonly #o: WatcherOptions &
    Required<
      Pick<
        WatcherOptions,
        'leaseMs' | 'reloadMs' | 'rpcTimeoutMs' | 'maxLogBlocks' | 'nativeBlocks' | 'maxBackoffMs' | 'failingAfter'
      >
    >;
  readonly #chains = new Map<string, ChainState>();
  readonly #loops: LeasedLoops;

  constructor(opts: WatcherOptions) {
    this.#o = {
      leaseMs: 10_000,
      reloadMs: 5000,
      rpcTimeoutMs: 15_000,
      maxLogBlocks: 2000,
      nativeBlocks: 25,
      maxBackoffMs: 60_000,
      failingAfter: DEFAULT_FAILING_ROUNDS,
      ...opts,
    };
    this.#loops = new LeasedLoops({
      what: 'chain watch',
      reloadMs: this.#o.reloadMs,
      log: this.#o.log,
      keys: async () => (await watchQuery(this.#o.store.db).where('w.enabled', '=', 1).execute()).map((w) => w.symbol),
      turn: (symbol) => this.#turn(symbol),
      ended: (symbol) => this.#forget(symbol),
    });
  }

  /** Starts following the watched chains (and keeps reading which they are). */
  start(): void {
    this.#loops.start();
  }

  /** A watch changed on this instance: look at the list now. */
  wake(): void {
    this.#loops.wake();
  }

  async stop(): Promise<void> {
    await this.#loops.stop();
    for (const symbol of [...this.#chains.keys()]) this.#forget(symbol);
    if (mayHoldLeases(LEASES, this.owner)) {
      await this.#o.store.writeTransaction((trx) => releaseLeases(trx, LEASES, this.owner)).catch(() => undefined);
    }
  }

  /** What this instance knows about a chain it follows. */
  live(symbol: string): LiveStatus | undefined {
    return this.#chains.get(symbol.toUpperCase())?.live;
  }

  /** Rounds failed in a row after which a watch is `failing`. */
  get failingAfter(): number {
    return this.#o.failingAfter;
  }

  /** Every chain this instance follows, for /readyz. */
  statuses(): {
    chain: string;
    state: LiveStatus['state'];
    leader: boolean;
    lastError: string | null;
    failedRounds: number;
  }[] {
    return [...this.#chains.entries()].map(([chain, c]) => ({
      chain,
      state: c.live.state,
      leader: c.live.leader,
      lastError: c.live.lastError,
      failedRounds: c.live.failedRounds,
    }));
  }

  /**
   * One round for one chain, now (the loops call it; tests drive it by hand). Errors are thrown
   * to the caller, masked; the loops catch them.
   */
  async round(symbol: string): Promise<RoundOutcome> {
    const sym = symbol.toUpperCase();
    const state = this.#state(sym);
    const w = await findWatch(this.#o.store.db, sym);
    if (w === undefined) return { leader: false, reason: 'not_watched' };
    if (w.enabled === 0) {
      state.live = { ...state.live, state: 'stopped', leader: false };
      return { leader: false, reason: 'disabled' };
    }
    const holder = this.#holder(w);
    try {
      await this.#o.store.writeTransaction((trx) => holdLease(trx, LEASES, w.chain_id, holder));
    } catch (err) {
      if (!(err instanceof LeaseLost)) throw err;
      state.live = { ...state.live, state: 'standby', leader: false };
      this.#o.metrics.leader.set({ chain: sym }, 0);
      return { leader: false, reason: 'standby' };
    }
    state.live.leader = true;
    this.#o.metrics.leader.set({ chain: sym }, 1);
    const secrets = this.#secrets(w);
    try {
      const adapter = this.#adapter(state, w, secrets);
      const result = await runRound(
        {
          ...holder,
          store: this.#o.store,
          checkouts: this.#o.checkouts,
          payouts: this.#o.payouts?.(),
          metrics: this.#o.metrics,
          log: this.#o.log,
          beforeCursorSave: this.#o.beforeCursorSave,
        },
        w,
        adapter,
      );
      if (result.brokenLink !== undefined) {
        // Went back to the fork: a reorganisation handled, but the node contradicted itself.
        await this.#failed(state, w, masked(result.brokenLink, secrets), true);
        return { leader: true, ...result };
      }
      state.live = { state: 'watching', leader: true, lastError: null, consecutiveErrors: 0, failedRounds: 0 };
      this.#o.metrics.failedRounds.set({ chain: sym }, 0);
      return { leader: true, ...result };
    } catch (err) {
      if (err instanceof LeaseLost) {
        state.live = { ...state.live, state: 'standby', leader: false };
        return { leader: false, reason: 'standby' };
      }
      if (err instanceof ChainMoved) {
        await this.#failed(state, w, masked(`the chain moved while it was read: ${err.message}`, secrets), true);
        return { leader: false, reason: 'chain_moved' };
      }
      const raw = err instanceof Error ? ((err as { shortMessage?: string }).shortMessage ?? err.message) : String(err);
      const message = masked(raw, secrets);
      this.#o.metrics.rpcErrors.inc({ chain: sym });
      // A broken connection is opened afresh next time.
      state.adapter?.close?.();
      state.adapter = undefined;
      await this.#failed(state, w, message, false);
      throw new Error(message);
    }
  }

  /** A failed round: counted in a row (in the store, so every instance shows it), and shown (health.ts). */
  async #failed(state: ChainState, w: WatchRow, message: string, moved: boolean): Promise<void> {
    const { live, shown } = afterFailure(state.live, w.failed_rounds, { message, moved }, this.#o.failingAfter);
    state.live = live;
    const rounds = live.failedRounds;
    this.#o.metrics.failedRounds.set({ chain: w.symbol }, rounds);
    await this.#o.store
      .writeTransaction((trx) =>
        trx
          .updateTable('chain_watches')
          .set({
            failed_rounds: rounds,
            ...(shown === undefined ? {} : { last_error: shown, last_error_at: new Date(this.#o.now()).toISOString() }),
          })
          .where('chain_id', '=', w.chain_id)
          .where('lease_owner', '=', this.owner)
          .execute(),
      )
      .catch(() => undefined);
  }

  /** The lease outlives three polls, so a chain polled slowly is not passed around between rounds. */
  #holder(w: WatchRow) {
    return { owner: this.owner, now: this.#o.now, leaseMs: Math.max(this.#o.leaseMs, 3 * w.poll_interval_ms) };
  }

  #secrets(w: WatchRow): { url: string; apiKey: string | undefined } {
    return {
      url: this.#o.box.open(w.rpc_url_sealed, rpcOwner(w.chain_id)).toString('utf8'),
      apiKey:
        w.api_key_sealed === null
          ? undefined
          : this.#o.box.open(w.api_key_sealed, apiKeyOwner(w.chain_id)).toString('utf8'),
    };
  }

  #state(symbol: string): ChainState {
    let s = this.#chains.get(symbol);
    if (s === undefined) {
      s = {
        adapter: undefined,
        adapterKey: '',
        live: { state: 'standby', leader: false, lastError: null, consecutiveErrors: 0, failedRounds: 0 },
      };
      this.#chains.set(symbol, s);
    }
    return s;
  }

  /** The chain's adapter, made again when its kind, node, key or address rule changed. */
  #adapter(state: ChainState, w: WatchRow, secrets: { url: string; apiKey: string | undefined }): ChainAdapter {
    const key = `${w.adapter_kind}|${w.rpc_url_sealed}|${w.api_key_sealed}|${w.allow_private_rpc}`;
    if (state.adapter !== undefined && state.adapterKey === key) return state.adapter;
    state.adapter?.close?.();
    state.adapter = undefined;
    const factory = isAdapterKind(w.adapter_kind) ? ADAPTERS[w.adapter_kind] : undefined;
    if (factory === undefined) throw new Error(`this build has no adapter of kind ${w.adapter_kind}`);
    const guard = { sandbox: this.#o.sandbox, allowPrivate: w.allow_private_rpc === 1, resolve: this.#o.resolve };
    const fetcher = rpcFetch(guard);
    const timeoutMs = this.#o.rpcTimeoutMs;
    const opts: AdapterOptions & { maxLogBlocks: number; nativeBlocks: number } = {
      url: secrets.url,
      apiKey: secrets.apiKey,
      // Every call has a deadline, whether or not the adapter set one.
      fetch: (input, init) =>
        fetcher.fetchFn(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(timeoutMs) }),
      checkHost: async (host) => {
        await checkedRpcAddresses(host, guard);
      },
      timeoutMs,
      close: fetcher.close,
      maxLogBlocks: this.#o.maxLogBlocks,
      nativeBlocks: this.#o.nativeBlocks,
    };
    state.adapter = factory(opts);
    state.adapterKey = key;
    return state.adapter;
  }

  #forget(symbol: string): void {
    const s = this.#chains.get(symbol);
    s?.adapter?.close?.();
    this.#chains.delete(symbol);
    this.#o.metrics.leader.set({ chain: symbol }, 0);
  }

  /** One turn of a chain's loop; returns how long to wait before the next. */
  async #turn(symbol: string): Promise<number> {
    const poll =
      (await findWatch(this.#o.store.db, symbol).catch(() => undefined))?.poll_interval_ms ?? this.#o.reloadMs;
    try {
      const r = await this.round(symbol);
      // Behind the head: the next range at once.
      return r.leader && !r.caughtUp ? 0 : poll;
    } catch (err) {
      const wait = backoff(poll, this.#state(symbol).live.consecutiveErrors, this.#o.maxBackoffMs);
      this.#o.log.warn(`chain watch ${symbol}: ${(err as Error).message}; next try in ${Math.round(wait / 1000)} s`);
      return wait;
    }
  }
}
