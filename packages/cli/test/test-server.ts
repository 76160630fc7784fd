import { randomBytes } from 'node:crypto';
import { createServices, loadConfig, seedDemo, type DemoCredentials, type Services } from '@hostpay/server';
import { buildApp, startServer } from '@hostpay/server/app';
import { configureChains } from '../../server/test/http-helpers/checkouts.js';
import { TEST_DATABASE_URL, type Dialect } from '../../server/test/helpers.js';
import { dropPostgresSchema } from '../../server/src/store/postgres.js';
import { tempDir } from './helpers.js';

export interface TestServer {
  url: string;
  services: Services;
  /** Set when started with `demo: true`. */
  demo?: DemoCredentials;
  close(): Promise<void>;
}

/**
 * The real hostpay server in the test process: embedded SQLite in a temp dir, listening on a
 * random local port; spawned CLI processes talk to it over HTTP. `adminTokens` is
 * HOSTPAY_ADMIN_TOKENS (`name:token,…`); empty or absent: the admin API is disabled.
 */
async function startTestServer(opts: {
  adminTokens?: string;
  demo?: boolean;
  checkouts?: boolean;
  dialect?: Dialect;
}): Promise<TestServer> {
  const data = tempDir();
  // PostgreSQL: a schema of its own in the test database, dropped on close.
  const schema = opts.dialect === 'postgres' ? `hp_cli_${randomBytes(6).toString('hex')}` : undefined;
  const database = schema === undefined ? {} : { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema };
  const dropSchema = async () => {
    if (schema !== undefined) await dropPostgresSchema(TEST_DATABASE_URL, schema);
  };
  // Bad-credential cases fail authentication from 127.0.0.1 on purpose: lift the per-address limit.
  const config = loadConfig(
    {},
    {
      dataDir: data.dir,
      logLevel: 'silent',
      adminTokens: opts.adminTokens ?? '',
      authFailureLimitPerMinute: 1_000_000,
      sandbox: opts.checkouts === true,
      ...database,
    },
  );
  const services = await createServices(config, { generateMasterKey: true });
  try {
    const demo = opts.demo === true ? await seedDemo(services, data.dir) : undefined;
    if (opts.checkouts) await configureChains(services);
    const app = await buildApp({
      config,
      services: services.merchant,
      features: services,
      admin: services.admin,
      logger: false,
    });
    const running = await startServer(app, { host: '127.0.0.1', port: 0, handleSignals: false, settleMemory: false });
    services.setListenUrl(running.url); // checkout page links name the real port, as hostpay serve does
    return {
      url: running.url,
      services,
      ...(demo ? { demo } : {}),
      close: async () => {
        await running.close();
        await services.close();
        await dropSchema();
        data.remove();
      },
    };
  } catch (err) {
    await services.close();
    await dropSchema();
    data.remove();
    throw err;
  }
}

/** With the admin API (no demo data). */
export const startAdminServer = (adminTokens: string, dialect: Dialect = 'sqlite'): Promise<TestServer> =>
  startTestServer({ adminTokens, dialect });
export type AdminServer = TestServer;

export type RealServer = TestServer & { demo: DemoCredentials };

/** With the demo merchant seeded, for the merchant commands. */
export async function startRealServer(): Promise<RealServer> {
  return (await startTestServer({ demo: true })) as RealServer;
}

/**
 * A sandbox with the demo merchant, the checkout routes, the demo chains given the address
 * vectors' keys (one confirmation), and the admin API for `adminTokens`.
 */
export async function startCheckoutServer(adminTokens: string): Promise<RealServer> {
  return (await startTestServer({ demo: true, checkouts: true, adminTokens })) as RealServer;
}
