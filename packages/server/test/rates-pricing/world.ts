import { parseExactJson } from '@hostpay/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { seedDemo } from '../../src/demo/seed.js';
import type { Services } from '../../src/services.js';
import { tempServices, type Dialect, type TempEnv } from '../helpers.js';
import { adminCaller, OPERATOR_TOKENS, type AdminCall } from '../http-helpers/admin-fixture.js';
import { checkoutCall, configureChains } from '../http-helpers/checkouts.js';
import type { HttpFixture, TestKey } from '../http-helpers/fixture.js';

/**
 * The pricing tests' world: real services on a fresh store (SQLite, or a PostgreSQL schema of its
 * own) with the demo seeded and chains keyed, one clock for the services and the app that stands
 * still unless a test moves it (`clock.offsetMs`: ages are exact to the second), operator calls, signed merchant calls, and rates written as a rate feed
 * writes them (a row with its fetch time and maximum age).
 */
export interface PricingWorld {
  services: Services;
  app: FastifyInstance;
  clock: { offsetMs: number };
  now(): number;
  demo: TestKey;
  admin: AdminCall;
  /** A signed merchant call of the demo merchant (fresh token). */
  merchant(method: 'GET' | 'POST', url: string, body?: unknown): Promise<LightMyRequestResponse>;
  /** The same, with another merchant's key. */
  merchantAs(key: TestKey, method: 'GET' | 'POST', url: string, body?: unknown): Promise<LightMyRequestResponse>;
  /**
   * Stores `base/quote` as a feed would: fetched at `fetchedAtMs` (default now), quotable for
   * `maxAgeSeconds` (null: pinned, never stale); then drops the caches, as every rate write does.
   */
  setRate(
    base: string,
    quote: string,
    rate: string,
    opts?: { fetchedAtMs?: number; maxAgeSeconds?: number | null; source?: string },
  ): Promise<void>;
  close(): Promise<void>;
}

export async function createPricingWorld(dialect: Dialect): Promise<PricingWorld> {
  const clock = { offsetMs: 0 };
  const start = Date.now();
  const now = () => start + clock.offsetMs;
  const env: TempEnv = await tempServices(dialect, { now, expirySweepMs: 0 });
  const { services } = env;
  const demo = await seedDemo(services, env.dataDir);
  await configureChains(services);
  const config = loadConfig(
    {},
    { dataDir: env.dataDir, logLevel: 'silent', authFailureLimitPerMinute: 100_000, adminTokens: OPERATOR_TOKENS },
  );
  const app = await buildApp({
    config,
    services: services.merchant,
    admin: services.admin,
    features: services,
    now,
    logger: false,
  });
  await app.ready();
  const key: TestKey = { apiKey: demo.apiKey, apiSecret: demo.apiSecret, merchantId: demo.merchantId };
  // checkoutCall reads the app and the clock of its fixture only.
  const fx = { app, now } as unknown as HttpFixture;
  return {
    services,
    app,
    clock,
    now,
    demo: key,
    admin: adminCaller(() => app),
    merchant: (method, url, body) => checkoutCall(fx, key, method, url, body),
    merchantAs: (other, method, url, body) => checkoutCall(fx, other, method, url, body),
    async setRate(base, quote, rate, opts = {}) {
      const at = new Date(opts.fetchedAtMs ?? now()).toISOString();
      const maxAge = opts.maxAgeSeconds === undefined ? 60 : opts.maxAgeSeconds;
      const row = {
        base,
        quote,
        rate,
        source: opts.source ?? 'test-feed',
        updated_at: at,
        fetched_at: at,
        max_age_seconds: maxAge,
        pinned: maxAge === null ? 1 : 0,
      };
      const { base: _b, quote: _q, ...changes } = row;
      await services.store.db
        .insertInto('rates')
        .values(row)
        .onConflict((oc) => oc.columns(['base', 'quote']).doUpdateSet(changes))
        .execute();
      await services.caches.invalidate({ kind: 'fees' });
    },
    async close() {
      await app.close();
      await env.cleanup();
    },
  };
}

/** The `result` of an answer, exact numbers as their text. */
export function exact<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return (parseExactJson(res.body) as { result: T }).result;
}

/** The error envelope of an answer (its details hold integers only). */
export function errorBody(res: LightMyRequestResponse): {
  code: string;
  message: string;
  details: Record<string, unknown>;
} {
  const body = JSON.parse(res.body) as { message: string; error: { code: string; details: Record<string, unknown> } };
  return { ...body.error, message: body.message };
}

export interface OptionView {
  asset: string;
  chain: string;
  address: string;
  amountDue: string;
  rate: string;
  rateSource: string | null;
  rateAt: string | null;
  rateSpreadPercent: string | null;
  fee: string;
  netAmount: string;
}

export const CHECKOUTS = '/api/v1/cp/psp/hosted-pay';
