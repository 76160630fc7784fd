import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { describe } from 'vitest';
import { createServices, type Services } from '../src/services.js';
import { dropPostgresSchema, openPostgresStore } from '../src/store/postgres.js';

export type Dialect = 'sqlite' | 'postgres';

export const TEST_DATABASE_URL = process.env.HOSTPAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether the PostgreSQL suites run. With CI=true they always run, so an unreachable server
 * fails them loudly; elsewhere they are skipped with the reason printed once.
 */
export const postgresAvailable: boolean = await (async () => {
  if (process.env.CI === 'true') return true;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch (err) {
    console.warn(
      `[hostpay tests] PostgreSQL suites skipped: ${TEST_DATABASE_URL} unreachable (${(err as Error).message}); CI=true makes them mandatory`,
    );
    return false;
  }
})();

export const TEST_REDIS_URL = process.env.HOSTPAY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether the Redis suites run: always with CI=true (failing loudly), else when reachable. */
export const redisAvailable: boolean = await (async () => {
  if (process.env.CI === 'true') return true;
  const { Redis } = await import('ioredis');
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch (err) {
    console.warn(
      `[hostpay tests] Redis suites skipped: ${TEST_REDIS_URL} unreachable (${(err as Error).message}); CI=true makes them mandatory`,
    );
    return false;
  } finally {
    probe.disconnect();
  }
})();

/** Resolves once `redis` is connected (a test that needs Redis's own answers, not an outage fallback). */
export async function redisReady(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
}

/** Deletes a test's keys (everything under `prefix`) and closes the connection. */
export async function dropRedisKeys(redis: Redis | undefined, prefix: string): Promise<void> {
  if (redis === undefined) return;
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
}

/** The dialects every store test runs on. */
export const DIALECTS: Dialect[] = postgresAvailable ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * The store matrix: `body` once per store, as a describe block named "`name` on <dialect>" —
 * SQLite, and PostgreSQL wherever it is reachable (always in CI, where CI=true makes an
 * unreachable server fail). A test that touches the store is written once, inside this, and
 * builds its world for the dialect it is given (`tempServices(dialect)`,
 * `createFixture(config, options, dialect)`).
 */
export function describeStores(name: string, body: (dialect: Dialect) => void): void {
  describe.each(DIALECTS)(`${name} on %s`, body);
}

/**
 * Real services over a fresh store — SQLite in a temp dir, or PostgreSQL in a schema of its own —
 * removed by `cleanup`.
 */
export interface TempEnv {
  services: Services;
  dataDir: string;
  databaseUrl: string;
  schema?: string;
  /** Opens more services on the same store (another "instance"), e.g. with other master keys. */
  reopen(config?: { masterKey?: string; masterKeyPrevious?: string }): Promise<Services>;
  cleanup: () => Promise<void>;
}

/** `options`: passed to createServices for the first and reopened services (a clock, no expiry timer). */
export async function tempServices(
  dialect: Dialect = 'sqlite',
  options: { now?: () => number; expirySweepMs?: number } = {},
  /** More configuration (e.g. `sandbox: true`, as `serve --demo` runs). */
  extra: { sandbox?: boolean } = {},
): Promise<TempEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-test-'));
  if (dialect === 'sqlite') {
    const services = await createServices(
      { dataDir, databaseUrl: '', masterKey: '', ...extra },
      { generateMasterKey: true, ...options },
    );
    return {
      services,
      dataDir,
      databaseUrl: '',
      reopen: (config = {}) =>
        createServices({ dataDir, databaseUrl: '', masterKey: '', ...extra, ...config }, options),
      cleanup: async () => {
        await services.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = `hp_test_${randomBytes(6).toString('hex')}`;
  const store = await openPostgresStore(TEST_DATABASE_URL, { schema });
  const services = await createServices(
    { dataDir, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema, masterKey: '', ...extra },
    { generateMasterKey: true, store, ...options },
  );
  return {
    services,
    dataDir,
    databaseUrl: TEST_DATABASE_URL,
    schema,
    reopen: async (config = {}) =>
      createServices(
        { dataDir, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema, masterKey: '', ...extra, ...config },
        { store: await openPostgresStore(TEST_DATABASE_URL, { schema }), ...options },
      ),
    cleanup: async () => {
      await services.close();
      await dropPostgresSchema(TEST_DATABASE_URL, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 10 ms until it holds; fails after `timeoutMs` naming what it waited for. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
