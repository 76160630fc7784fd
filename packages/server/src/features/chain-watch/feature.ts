import { defineFeature } from '../../feature-kit/feature.js';
import { evmWatchAdminRoutes } from './routes.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import type { ChainPort } from '../checkouts/watch-targets.js';
import { systemResolver, type Resolver } from '../../outbound/guard.js';
import { EvmWatchMetrics } from './metrics.js';
import { watchAdmin } from './service.js';
import { EvmWatcher, type WatcherOptions } from './watcher.js';

export interface EvmWatchFeatureOptions {
  store: Store;
  box: SecretBox;
  /** The checkouts feature's port for chain watchers (reports, retractions, what to watch). */
  checkouts: ChainPort;
  sandbox: boolean;
  now?: () => number;
  /** DNS for the RPC address checks; tests answer with chosen addresses. Default: the system resolver. */
  resolve?: Resolver;
  log?: { warn(msg: string): void };
  /** Called when a watch change changed the catalog (a chain's confirmations). */
  catalogChanged: () => Promise<void>;
  watcher?: Partial<
    Pick<
      WatcherOptions,
      'leaseMs' | 'reloadMs' | 'rpcTimeoutMs' | 'maxLogBlocks' | 'nativeBlocks' | 'maxBackoffMs' | 'beforeCursorSave'
    >
  >;
}

/**
 * The EVM chain watcher, wired once: the operators' watch settings and the watcher itself
 * (created stopped: the server starts it; tests drive rounds by hand).
 */
export function createEvmWatch(opts: EvmWatchFeatureOptions) {
  const now = opts.now ?? Date.now;
  const resolve = opts.resolve ?? systemResolver;
  const metrics = new EvmWatchMetrics();
  const watcherOptions: WatcherOptions = {
    store: opts.store,
    box: opts.box,
    checkouts: opts.checkouts,
    metrics,
    sandbox: opts.sandbox,
    resolve,
    now,
    log: opts.log ?? { warn: () => undefined },
    ...opts.watcher,
  };
  const watcher = new EvmWatcher(watcherOptions);
  return {
    admin: watchAdmin({
      store: opts.store,
      box: opts.box,
      sandbox: opts.sandbox,
      resolve,
      now,
      live: (s) => watcher.live(s),
      changed: () => watcher.wake(),
      catalogChanged: opts.catalogChanged,
    }),
    watcher,
    metrics,
    /** Another watcher over the same store, as a second instance would run (tests). */
    spawnWatcher: (overrides: Partial<WatcherOptions> = {}) => new EvmWatcher({ ...watcherOptions, ...overrides }),
    close: () => watcher.stop(),
  };
}

export type EvmWatch = ReturnType<typeof createEvmWatch>;

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The EVM chain watcher and its operator settings (the watcher is started by createServer). */
    evm: EvmWatch;
  }
  interface FeatureOptions {
    /** EVM watcher: DNS for the RPC address checks (tests), watcher timings. */
    evm?: Pick<EvmWatchFeatureOptions, 'resolve' | 'watcher'>;
  }
}

export const evmWatchFeature = defineFeature({
  name: 'evm-watch',
  needs: ['store', 'box', 'caches', 'config', 'log', 'now', 'options', 'chainPort'],
  provides: ['evm'],
  create({ store, box, caches, config, log, now, options, chainPort }) {
    const evm = createEvmWatch({
      store,
      box,
      checkouts: chainPort,
      sandbox: config.sandbox ?? false,
      log,
      catalogChanged: () => caches.invalidate({ kind: 'catalog' }),
      ...(now === undefined ? {} : { now }),
      ...options.evm,
    });
    return { evm, close: () => evm.close() };
  },
  /** Which EVM chains the watcher follows, through which node. */
  admin: ({ evm }) => evm.admin,
  adminRoutes: [evmWatchAdminRoutes],
  start: ({ evm }) => evm.watcher.start(),
});
