import type { SecretBox } from '../../crypto/secret-box.js';
import type { AdminRoutes } from '../../admin/scope.js';
import { defineFeature } from '../../feature-kit/feature.js';
import { systemResolver, type Resolver } from '../../outbound/guard.js';
import type { Store } from '../../store/store.js';
import { HotWalletMetrics } from './metrics.js';
import type { PayoutSenderPort } from './port.js';
import { hotWalletAdminRoutes, hotWalletMetricsRoutes } from './routes.js';
import { HotWalletSender, type SenderOptions } from './sender.js';
import { hotWalletAdmin } from './service.js';
import { payoutChainPort } from './confirmations.js';
import { hotWalletGuard } from './guard.js';
import { payoutChainOps } from './payout-ops.js';
import { payoutChainRoutes } from './payout-routes.js';
import { createVerifier } from './verify.js';
import { SentVerifier, type SentVerifierOptions } from './verify-sent.js';
import { hotWalletMigrations } from './tables.js';

export type { PayoutJob, PayoutSenderPort, SentPayoutJob } from './port.js';
export type { ExpectedTransfer, Verification, VerifyTransfer } from './verify.js';

type SenderTimings = Partial<
  Pick<
    SenderOptions,
    | 'leaseMs'
    | 'reloadMs'
    | 'rpcTimeoutMs'
    | 'replaceAfterMs'
    | 'maxFeeBumps'
    | 'batch'
    | 'maxBackoffMs'
    | 'afterSign'
    | 'beforeStore'
  >
>;

export interface HotWalletFeatureOptions {
  store: Store;
  box: SecretBox;
  sandbox: boolean;
  now?: () => number;
  resolve?: Resolver;
  log?: { warn(msg: string): void };
  /** The payouts feature's port; may also be attached later (`sender.attach`). */
  port?: PayoutSenderPort;
  sender?: SenderTimings;
  /** The check of operator-reported transactions on watched chains: its timings. */
  verify?: Pick<SentVerifierOptions, 'everyMs' | 'notFoundFailMs'>;
  /** This instance's chain watcher's lease owner: the verifier checks only the chains it leads. */
  watchOwner?: () => string;
}

/**
 * The evm-hot-wallet sender, wired once: the operators' hot wallet keys, the sender (created
 * stopped: the server starts it; tests drive rounds by hand) and verifyTransfer for the manual
 * sender's reported transactions.
 */
export function createHotWallet(opts: HotWalletFeatureOptions) {
  const now = opts.now ?? Date.now;
  const resolve = opts.resolve ?? systemResolver;
  const metrics = new HotWalletMetrics();
  const base: SenderOptions = {
    store: opts.store,
    box: opts.box,
    metrics,
    sandbox: opts.sandbox,
    resolve,
    now,
    log: opts.log ?? { warn: () => undefined },
    port: opts.port,
    ...opts.sender,
  };
  const sender = new HotWalletSender(base);
  const checks = createVerifier({ store: opts.store, box: opts.box, sandbox: opts.sandbox, resolve });
  const verifier = new SentVerifier({
    store: opts.store,
    open: checks.open,
    now,
    log: base.log,
    port: opts.port,
    watchOwner: opts.watchOwner,
    ...opts.verify,
  });
  return {
    admin: {
      ...hotWalletAdmin({ store: opts.store, box: opts.box, now, changed: () => sender.wake() }),
      // The way out of a payout stuck in flight: its transactions, rebroadcast, cancel by replacement.
      ...payoutChainOps({
        store: opts.store,
        box: opts.box,
        now,
        sandbox: opts.sandbox,
        resolve,
        changed: () => sender.wake(),
      }),
    },
    sender,
    metrics,
    verifyTransfer: checks.verifyTransfer,
    /** Checks the transactions operators report on watched EVM chains (started with the sender). */
    verifier,
    /** Another sender over the same store, as a second instance would run (tests). */
    spawnSender: (overrides: Partial<SenderOptions> = {}) => new HotWalletSender({ ...base, ...overrides }),
    close: async () => {
      await verifier.stop();
      await sender.stop();
    },
  };
}

export type HotWallet = ReturnType<typeof createHotWallet>;

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The EVM hot wallets, their sender (started by createServer) and verifyTransfer. */
    hotWallet: HotWallet;
  }
  interface FeatureOptions {
    /** Hot wallet sender: the payouts port (tests), DNS for the RPC address checks, timings. */
    hotWallet?: Pick<HotWalletFeatureOptions, 'port' | 'resolve' | 'sender' | 'verify'>;
  }
}

export const hotWalletFeature = defineFeature({
  name: 'hot-wallet',
  migrations: hotWalletMigrations,
  needs: ['store', 'box', 'config', 'log', 'now', 'options', 'payoutSender', 'chainWatch'],
  provides: ['hotWallet'],
  contributes: {
    // The chain watcher counts the confirmations of the payouts this wallet sends and of those
    // operators report by hand, once the verifier saw them mined.
    payoutConfirmations: ({ store, hotWallet, log }) => [
      payoutChainPort(store, () => hotWallet.sender.port, hotWallet.metrics, log),
    ],
    // A payout this wallet signed is decided by the chain, not by hand (guard.ts).
    payoutGuards: () => [hotWalletGuard],
  },
  create({ store, box, config, log, now, options, payoutSender, chainWatch }) {
    const hotWallet = createHotWallet({
      store,
      box,
      // The payouts feature's port; tests may hand in their own through options.hotWallet.port.
      port: payoutSender,
      // Reported transactions are checked where the chain's watcher runs (it counts their confirmations).
      watchOwner: () => chainWatch.watcher.owner,
      sandbox: config.sandbox ?? false,
      log,
      ...(now === undefined ? {} : { now }),
      ...(options.chainWatch?.resolve === undefined ? {} : { resolve: options.chainWatch.resolve }),
      ...options.hotWallet,
      sender: {
        replaceAfterMs: (config.hotWalletFeeBumpAfterSeconds ?? 180) * 1000,
        ...options.hotWallet?.sender,
      },
    });
    return { hotWallet, close: () => hotWallet.close() };
  },
  /** Which key sends payouts on which EVM chain. */
  admin: ({ hotWallet }): HotWallet['admin'] => hotWallet.admin,
  adminRoutes: [hotWalletAdminRoutes, payoutChainRoutes] as AdminRoutes<HotWallet['admin']>[],
  merchantRoutes: [hotWalletMetricsRoutes],
  start: ({ hotWallet }) => {
    hotWallet.sender.start();
    hotWallet.verifier.start();
  },
});
