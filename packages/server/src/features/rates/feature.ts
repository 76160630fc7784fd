import type { Metric } from 'prom-client';
import type { AdminRoutes } from '../../admin/scope.js';
import { defineFeature } from '../../feature-kit/feature.js';
import { systemResolver, type Resolver } from '../../outbound/guard.js';
import { RateMetrics } from './metrics.js';
import { RateRefresher, type RefresherOptions } from './refresher.js';
import { rateAdminRoutes } from './routes.js';
import { rateAdmin } from './service.js';
import { rateSourceAdminRoutes } from './source-routes.js';
import { sourceAdmin } from './sources.js';
import { ratesMigrations } from './tables.js';

type RefresherTimings = Partial<Pick<RefresherOptions, 'leaseMs' | 'reloadMs' | 'timeoutMs' | 'maxAnswerBytes'>>;

export interface RateFeeds {
  refresher: RateRefresher;
  metrics: RateMetrics;
  /** Another refresher over the same store, as a second instance would run (tests). */
  spawnRefresher(overrides?: Partial<RefresherOptions>): RateRefresher;
  admin: ReturnType<typeof rateAdmin> & ReturnType<typeof sourceAdmin>;
}

declare module '../../feature-kit/feature.js' {
  interface Provisions {
    /** The rate feeds: the refresher (started by createServer), metrics, the operators' rates and sources. */
    rates: RateFeeds;
  }
  interface FeatureOptions {
    /** Rate feeds: DNS for the source address checks (tests), refresher timings. */
    rates?: { resolve?: Resolver; refresher?: RefresherTimings };
  }
}

/** Exchange rates: the operators' own, and the feeds that keep them fresh from public providers (docs/rates.md). */
export const ratesFeature = defineFeature({
  name: 'rates',
  migrations: ratesMigrations,
  needs: ['store', 'box', 'caches', 'config', 'log', 'now', 'options'],
  provides: ['rates'],
  create({ store, box, caches, config, log, now: clock, options }) {
    const now = clock ?? Date.now;
    const resolve = options.rates?.resolve ?? systemResolver;
    const sandbox = config.sandbox ?? false;
    const metrics = new RateMetrics(store, now);
    const base: RefresherOptions = {
      store,
      box,
      caches,
      metrics,
      sandbox,
      resolve,
      now,
      log,
      ...options.rates?.refresher,
    };
    const refresher = new RateRefresher(base);
    const rates: RateFeeds = {
      refresher,
      metrics,
      spawnRefresher: (overrides = {}) => new RateRefresher({ ...base, ...overrides }),
      admin: {
        ...rateAdmin({ store, caches, now }),
        ...sourceAdmin({ store, box, caches, sandbox, resolve, now, changed: () => refresher.wake() }),
      },
    };
    return { rates, close: () => refresher.stop() };
  },
  admin: ({ rates }) => rates.admin,
  adminRoutes: [rateAdminRoutes, rateSourceAdminRoutes] as AdminRoutes<RateFeeds['admin']>[],
  // No merchant routes: this only puts the feeds' metrics on /metrics.
  merchantRoutes: [
    async (_app, ctx) => {
      for (const metric of ctx.rates.metrics.collectors() as (Metric & { name: string })[])
        if (ctx.metrics.registry.getSingleMetric(metric.name) === undefined)
          ctx.metrics.registry.registerMetric(metric);
    },
  ],
  start: ({ rates }) => rates.refresher.start(),
});
