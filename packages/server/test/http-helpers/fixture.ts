import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { seedDemo } from '../../src/demo/seed.js';
import { createServices, type Services } from '../../src/services.js';
import type { MerchantServices } from '../../src/auth/ports.js';
import { dropPostgresSchema } from '../../src/store/postgres.js';
import { TEST_DATABASE_URL, type Dialect } from '../helpers.js';

/**
 * The HTTP tests' world: real services over a fresh store (SQLite in a temp dir, or PostgreSQL in
 * a schema of its own: `dialect`, as `describeStores` gives it), the demo data seeded, and an app
 * whose clock tests can move. Every operator action the tests need goes
 * through here, so a change in the admin services touches one file.
 */
export interface TestKey {
  apiKey: string;
  apiSecret: string;
  merchantId: string;
}

export interface KeyOptions {
  scopes?: string[];
  rateLimitPerMinute?: number;
  expiresAt?: string;
  ipAllowList?: string[];
  requireSignatureV2?: boolean;
}

export interface HttpFixture {
  app: FastifyInstance;
  services: Services;
  config: Config;
  /** The app's clock (ms). Move it with `clock.offsetMs`. */
  now(): number;
  clock: { offsetMs: number };
  /** The seeded demo merchant's key: wallets and fee schedules exist for it. */
  demo: TestKey;
  createMerchant(name?: string): Promise<string>;
  createKey(merchantId: string, options?: KeyOptions): Promise<TestKey>;
  revokeKey(keyId: string): Promise<void>;
  suspendMerchant(merchantId: string): Promise<void>;
  grant(keyId: string, merchantId: string): Promise<void>;
  /** Another app over the same services, e.g. with a wrapped service or a log stream. */
  buildApp(overrides?: Partial<AppDeps> & { merchant?: Partial<MerchantServices> }): Promise<FastifyInstance>;
  close(): Promise<void>;
}

const ctx = { operator: 'test' };

export async function createFixture(
  configOverrides: Partial<Config> = {},
  serviceOptions: Pick<NonNullable<Parameters<typeof createServices>[1]>, 'webhooks' | 'events' | 'mail'> = {},
  dialect: Dialect = 'sqlite',
): Promise<HttpFixture> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-http-'));
  const schema = dialect === 'postgres' ? `hp_test_${randomBytes(6).toString('hex')}` : undefined;
  const store = schema === undefined ? {} : { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema };
  // Security tests fail authentication on purpose, many times, from one address.
  const config = loadConfig(
    {},
    { dataDir, logLevel: 'silent', authFailureLimitPerMinute: 100_000, ...store, ...configOverrides },
  );
  const clock = { offsetMs: 0 };
  const now = () => Date.now() + clock.offsetMs;
  // No expiry timer: tests expire checkouts by calling expireDue at the moment they choose.
  const services = await createServices(config, { generateMasterKey: true, now, expirySweepMs: 0, ...serviceOptions });
  const demo = await seedDemo(services, dataDir);
  const apps: FastifyInstance[] = [];
  const build = async (overrides: Partial<AppDeps> & { merchant?: Partial<MerchantServices> } = {}) => {
    const { merchant, ...deps } = overrides;
    const app = await buildApp({
      config,
      services: { ...services.merchant, ...merchant },
      admin: services.admin,
      features: services,
      now,
      logger: false,
      ...deps,
    });
    await app.ready();
    apps.push(app);
    return app;
  };
  const app = await build();
  const { admin } = services;
  return {
    app,
    services,
    config,
    now,
    clock,
    demo: { apiKey: demo.apiKey, apiSecret: demo.apiSecret, merchantId: demo.merchantId },
    createMerchant: async (name = 'Test Shop') => (await admin.createMerchant(name, ctx)).id,
    async createKey(merchantId, options = {}) {
      const key = await admin.createApiKey(merchantId, options, ctx);
      return { apiKey: key.apiKey, apiSecret: key.apiSecret, merchantId };
    },
    revokeKey: async (keyId) => void (await admin.revokeApiKey(keyId, ctx)),
    suspendMerchant: async (merchantId) => void (await admin.updateMerchant(merchantId, { status: 'suspended' }, ctx)),
    grant: async (keyId, merchantId) => void (await admin.grantMerchant(keyId, merchantId, ctx)),
    buildApp: build,
    async close() {
      for (const a of apps) await a.close();
      await services.close();
      if (schema !== undefined) await dropPostgresSchema(TEST_DATABASE_URL, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
