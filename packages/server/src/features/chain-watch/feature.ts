import { defineFeature } from '../../feature-kit/feature.js';
import { chainWatchAdminRoutes } from './routes.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import type { ChainPort } from '../checkouts/watch-targets.js';
import { systemResolver, type Resolver } from '../../outbound/guard.js';
import { ChainWatchMetrics } from './metrics.js';
import type { PayoutChainPort } from './payout-port.js';
import { watchAdmin } from './service.js';
import { ChainWatcher, type WatcherOptions } from './watcher.js';
import { chainWatchMigrations } from './tables.js';

export interface ChainWatchFeatureOptions {
  store: Store;
  box: SecretBox;
  /** The checkouts feature's port for chain watchers (reports, retractions, what to watch). */
  checkouts: ChainPort;
  sandbox: boolean;
  now?: () => number;
  /** DNS for the node address checks; tests answer with chosen addresses. Default: the system resolver. */
  resolve?: Resolver;
  log?: { warn(msg: string): void };
  /** Rounds failed in a row after which a watch is `failing` (HOSTPAY_CHAIN_WATCH_FAILING_ROUNDS); `watcher.failingAfter` wins. */
  failingAfter?: number | undefined;
  /** The payout senders' ports: the transactions whose confirmations the watcher counts. */
  payouts?: () => readonly PayoutChainPort[];
  /** Called when a watch change changed the catalog (a chain's confirmations). */
  catalogChanged: () => Promise<void>;
  watcher?: Partial<
    Pick<
      WatcherOptions,
      | 'leaseMs'
      | 'reloadMs'
      | 'rpcTimeoutMs'
      | 'maxLogBlocks'
      | 'nativeBlocks'
      | 'maxBackoffMs'
      | 'beforeCursorSave'
      | 'failingAfter'
    >
  >;
}

/**
 * The chain watcher, wired once: the operators' watch settings and the watcher itself (created
 * stopped: the server starts it; tests drive rounds by hand). One watcher for every chain family;
 * the adapter of each watch talks to its node (adapters/index.ts).
 */
export function createChainWatch(opts: ChainWatchFeatureOptions) {
  const now = opts.now ?? Date.now;
  const resolve = opts.resolve ?? systemResolver;
  const metrics = new ChainWatchMetrics();
  const watcherOptions: WatcherOptions = {
    ...(opts.payouts === undefined ? {} : { payouts: opts.payouts }),
    store: opts.store,
    box: opts.box,
    checkouts: opts.checkouts,
    metrics,
    sandbox: opts.sandbox,
    resolve,
    now,
    log: opts.log ?? { warn: () => undefined },
    ...(opts.failingAfter === undefined ? {} : { failingAfter: opts.failingAfter }),
    ...opts.watcher,
  };
  const watcher = new ChainWatcher(watcherOptions);
  return {
    admin: watchAdmin({
      store: opts.store,
      box: opts.box,
      sandbox: opts.sandbox,
      resolve,
      now,
      live: (s) => watcher.live(s),
      failingAfter: watcher.failingAfter,
      changed: () => watcher.wake(),
      catalogChanged: opts.catalogChanged,
    }),
    watcher,
    metrics,
    /** Another watcher over the same store, as a second instance would run (tests). */
    spawnWatcher: (overrides: Partial<WatcherOptions> = {}) => new ChainWatcher({ ...watcherOptions, ...overrides }),
    close: () => watcher.stop(),
  };
}

export type ChainWatch = ReturnType<typeof createChainWatch>;

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The chain watcher and its operator settings (the watcher is started by createServer). */
    chainWatch: ChainWatch;
  }
  interface StartOptions {
    /** false: the chain watcher is not started (tests drive its rounds by hand). Default true. */
    evmWatcher?: boolean;
  }
  interface FeatureOptions {
    /** Chain watcher: DNS for the node address checks (tests), watcher timings. */
    chainWatch?: Pick<ChainWatchFeatureOptions, 'resolve' | 'watcher'>;
  }
}

export const chainWatchFeature = defineFeature({
  name: 'chain-watch',
  migrations: chainWatchMigrations,
  needs: ['store', 'box', 'caches', 'config', 'log', 'now', 'options', 'chainPort'],
  provides: ['chainWatch'],
  // The payout senders' transactions it counts confirmations of (hot-wallet's, payout-port.ts).
  consumes: ['payoutConfirmations'],
  // Its chains in /readyz, its metrics in /metrics.
  contributes: {
    health: ({ chainWatch }) => [
      { chains: () => chainWatch.watcher.statuses(), collectors: () => chainWatch.metrics.collectors() },
    ],
  },
  create({ store, box, caches, config, log, now, options, chainPort }, contributed) {
    const chainWatch = createChainWatch({
      store,
      box,
      checkouts: chainPort,
      payouts: contributed.payoutConfirmations,
      sandbox: config.sandbox ?? false,
      log,
      catalogChanged: () => caches.invalidate({ kind: 'catalog' }),
      failingAfter: config.chainWatchFailingRounds,
      ...(now === undefined ? {} : { now }),
      ...options.chainWatch,
    });
    return { chainWatch, close: () => chainWatch.close() };
  },
  /** Which chains the watcher follows, through which node. */
  admin: ({ chainWatch }) => chainWatch.admin,
  adminRoutes: [chainWatchAdminRoutes],
  start: ({ chainWatch }) => chainWatch.watcher.start(),
  startOption: 'evmWatcher',
});
