import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseExactJson, sign, unixTimestamp } from '@hostpay/protocol';
import { Redis } from 'ioredis';
import pg from 'pg';
import { dropPostgresSchema } from '../../src/store/postgres.js';
import { postgresAvailable, redisAvailable, TEST_DATABASE_URL, TEST_REDIS_URL } from '../helpers.js';

/**
 * Two real `hostpay serve` processes behind no load balancer: the production topology of
 * PRODUCT.md ("PostgreSQL + Redis, several instances") in miniature. Both share one PostgreSQL
 * schema (fresh per test file) and one Redis key prefix (fresh per test file), a master key and
 * an operator token, and are configured only through HOSTPAY_* variables, as an operator would.
 * Everything the tests do goes over real sockets: admin calls with the operator token and
 * merchant calls signed the way a merchant's backend signs them.
 */

const BIN = fileURLToPath(new URL('../../../cli/bin/hostpay.js', import.meta.url));
const CI = process.env.CI === 'true';

/**
 * Whether the multi-instance suites run: with CI=true always (an unreachable PostgreSQL or Redis
 * then fails them loudly in `startCluster`); elsewhere only when both answer (the probes of
 * helpers.ts), else they are skipped with the reason printed.
 */
export const clusterAvailable: boolean = CI || (postgresAvailable && redisAvailable);
if (!clusterAvailable)
  console.warn(
    '[hostpay tests] multi-instance suites skipped: they need both PostgreSQL and Redis (reason above); CI=true makes them mandatory',
  );

async function redisReachable(): Promise<Error | null> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return err as Error;
  } finally {
    redis.disconnect();
  }
}

// --- HTTP -----------------------------------------------------------------------------------

export interface Reply {
  status: number;
  headers: Headers;
  /** The body exactly as received. */
  body: string;
  /** Which instance answered (0 = A, 1 = B). */
  instance: number;
  /** The body parsed with `parseExactJson`: every JSON number comes back as its exact text. */
  json<T = any>(): T;
}

const REQUEST_TIMEOUT_MS = 30_000;

async function http(instance: number, url: string, init: RequestInit): Promise<Reply> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const body = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body,
    instance,
    json: <T>() => parseExactJson(body) as T,
  };
}

export interface AdminOptions {
  /** A JSON value (serialised with JSON.stringify) or raw text. */
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export interface MerchantKey {
  /** The key id, sent as `api-key`. */
  apiKey: string;
  apiSecret: string;
}

/** The four merchant headers of interface §5, signed now. */
export function signedHeaders(key: MerchantKey, token: string | null, body = ''): Record<string, string> {
  const timestamp = unixTimestamp();
  const headers: Record<string, string> = {
    'api-key': key.apiKey,
    timestamp,
    signature: sign(key.apiSecret, timestamp, body),
  };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return headers;
}

// --- processes ------------------------------------------------------------------------------

export interface Instance {
  /** 'A' or 'B'. */
  name: string;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** What the process wrote to stderr (its logs), for failure messages. */
  stderr(): string;
}

function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('HOSTPAY_')) env[k] = v;
  return { ...env, ...extra };
}

const liveChildren = new Set<ChildProcess>();
// If the test worker dies without afterAll, its servers must not outlive it.
process.once('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

function startInstance(name: string, env: Record<string, string>, timeoutMs: number): Promise<Instance> {
  const child = spawn(process.execPath, [BIN, 'serve'], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      liveChildren.delete(child);
      resolve(code);
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const instance = (url: string): Instance => ({ name, url, child, exited, stderr: () => stderr });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `instance ${name} did not print its URL within ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr.slice(-4000)}`,
          ),
        ),
      timeoutMs,
    );
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${name} exited with ${code} before listening; stderr: ${stderr.slice(-4000)}`));
    });
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      // HOSTPAY_PORT=0: the server picks a free port and prints `hostpay listening on <url> (…)`.
      const hit = /listening on (http:\/\/\S+)/.exec(stdout);
      if (hit?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(instance(hit[1]));
    });
  });
}

/** SIGTERM (graceful drain), then SIGKILL if it is still running after `graceMs`. */
async function stopInstance(instance: Instance, graceMs = 5_000): Promise<number | null> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return instance.child.exitCode;
  instance.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)));
  const outcome = await Promise.race([instance.exited, killed]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    instance.child.kill('SIGKILL');
    await instance.exited;
    return null;
  }
  return outcome;
}

// --- the cluster ----------------------------------------------------------------------------

export interface ClusterOptions {
  /** More HOSTPAY_* variables for both instances. */
  env?: Record<string, string>;
  /** How long each instance may take to start. Default 45 s (generous: a loaded CI machine). */
  startTimeoutMs?: number;
}

export interface Seeded {
  merchantId: string;
  keyId: string;
  key: MerchantKey;
  walletIds: string[];
}

export interface Cluster {
  /** [A, B]. */
  instances: [Instance, Instance];
  schema: string;
  redisPrefix: string;
  /** A pg pool on the cluster's schema, for checks behind the servers' back. */
  db: pg.Pool;
  /** A Redis connection, for checks on the shared state. */
  redis: Redis;
  /** Calls `/admin/v1<path>` on instance `target` (0 = A, 1 = B) with the operator token. */
  admin(target: number, method: string, path: string, options?: AdminOptions): Promise<Reply>;
  /** `admin`, asserting a success envelope with `status`; returns `result` (parsed exactly). */
  adminOk<T = any>(
    target: number,
    method: string,
    path: string,
    options?: AdminOptions & { status?: number },
  ): Promise<T>;
  /** Every item of an admin list, following `nextCursor`, requests alternating between A and B. */
  adminList<T = any>(path: string, limit?: number): Promise<T[]>;
  /** POST /api/v1/auth/token on `target`; the raw reply. */
  requestToken(target: number, key: MerchantKey): Promise<Reply>;
  /** A bearer token for `key`, from `target`. */
  token(target: number, key: MerchantKey): Promise<string>;
  /** A signed merchant GET (all four headers) on `target`. */
  merchantGet(target: number, key: MerchantKey, token: string, path: string): Promise<Reply>;
  /** A merchant with one API key (optionally its own rate limit) and wallets, through the admin API. */
  seed(options?: { rateLimitPerMinute?: number; wallets?: Array<{ asset: string; chain: string }> }): Promise<Seeded>;
  /** Stops both processes, drops the schema, deletes the Redis keys. */
  close(): Promise<void>;
}

function fail(message: string, reply: Reply): never {
  throw new Error(`${message}: HTTP ${reply.status} from instance ${reply.instance === 0 ? 'A' : 'B'}: ${reply.body}`);
}

/**
 * Starts instances A and B on random ports over a fresh PostgreSQL schema and Redis prefix.
 * Both start at the same time on the empty schema, as a deployment's replicas would.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const pgProbe = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await pgProbe.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL at ${TEST_DATABASE_URL} is unreachable (${(err as Error).message}); the multi-instance suites need it (CI=true makes them mandatory)`,
    );
  } finally {
    await pgProbe.end().catch(() => undefined);
  }
  const redisError = await redisReachable();
  if (redisError !== null)
    throw new Error(
      `Redis at ${TEST_REDIS_URL} is unreachable (${redisError.message}); the multi-instance suites need it (CI=true makes them mandatory)`,
    );

  const suffix = randomBytes(6).toString('hex');
  const schema = `hp_test_${suffix}`;
  const redisPrefix = `hp_test_${suffix}:`;
  const masterKey = randomBytes(32).toString('base64');
  const adminToken = randomBytes(32).toString('hex');
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-cluster-'));
  const env: Record<string, string> = {
    HOSTPAY_HOST: '127.0.0.1',
    HOSTPAY_PORT: '0',
    HOSTPAY_DATA_DIR: dataDir,
    HOSTPAY_CONFIG_DIR: join(dataDir, 'no-profiles'),
    HOSTPAY_DATABASE_URL: TEST_DATABASE_URL,
    HOSTPAY_DATABASE_SCHEMA: schema,
    HOSTPAY_REDIS_URL: TEST_REDIS_URL,
    HOSTPAY_REDIS_PREFIX: redisPrefix,
    HOSTPAY_MASTER_KEY: masterKey,
    HOSTPAY_ADMIN_TOKEN: adminToken,
    HOSTPAY_LOG_LEVEL: 'warn',
    // Every request of the suites comes from 127.0.0.1; refused keys must not block the address.
    HOSTPAY_AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
    ...options.env,
  };

  const db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, options: `-c search_path=${schema}` });
  db.on('error', () => undefined);
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);

  const started = await Promise.allSettled([
    startInstance('A', env, options.startTimeoutMs ?? 45_000),
    startInstance('B', env, options.startTimeoutMs ?? 45_000),
  ]);
  const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));

  async function cleanup(): Promise<void> {
    const codes = await Promise.all(instances.map((i) => stopInstance(i)));
    codes.forEach((code, n) => {
      if (code !== 0)
        console.warn(
          `[hostpay tests] instance ${instances[n]?.name} stopped with ${code === null ? 'SIGKILL' : `exit code ${code}`}`,
        );
    });
    await db.end().catch(() => undefined);
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await cleanup();
    throw failed.reason;
  }
  const [a, b] = instances as [Instance, Instance];
  const urls = [a.url, b.url];
  const urlOf = (target: number): string => {
    const url = urls[target];
    if (url === undefined) throw new Error(`no instance ${target}`);
    return url;
  };

  const admin: Cluster['admin'] = (target, method, path, opts = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${adminToken}`, ...opts.headers };
    if (opts.idempotencyKey !== undefined) headers['idempotency-key'] = opts.idempotencyKey;
    let body: string | undefined;
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    return http(target, `${urlOf(target)}/admin/v1${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
  };

  const adminOk: Cluster['adminOk'] = async (target, method, path, opts = {}) => {
    const reply = await admin(target, method, path, opts);
    if (reply.status !== (opts.status ?? 200)) fail(`${method} /admin/v1${path}`, reply);
    return reply.json<{ result: any }>().result;
  };

  const cluster: Cluster = {
    instances: [a, b],
    schema,
    redisPrefix,
    db,
    redis,
    admin,
    adminOk,
    async adminList(path, limit = 200) {
      const items: any[] = [];
      let cursor: string | null = null;
      for (let n = 0; ; n++) {
        const sep = path.includes('?') ? '&' : '?';
        const page: { items: any[]; nextCursor: string | null } = await adminOk(
          n % 2,
          'GET',
          `${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`,
        );
        items.push(...page.items);
        if (page.nextCursor === null) return items;
        cursor = page.nextCursor;
      }
    },
    requestToken(target, key) {
      return http(target, `${urlOf(target)}/api/v1/auth/token`, { method: 'POST', headers: signedHeaders(key, null) });
    },
    async token(target, key) {
      const reply = await cluster.requestToken(target, key);
      if (reply.status !== 200) fail('POST /api/v1/auth/token', reply);
      return reply.json<{ result: { accessToken: string } }>().result.accessToken;
    },
    merchantGet(target, key, token, path) {
      return http(target, `${urlOf(target)}${path}`, { method: 'GET', headers: signedHeaders(key, token) });
    },
    async seed(opts = {}) {
      const merchant = await adminOk(0, 'POST', '/merchants', {
        body: { name: `merchant ${randomBytes(4).toString('hex')}` },
        idempotencyKey: `seed-m-${randomBytes(8).toString('hex')}`,
        status: 201,
      });
      const settings = opts.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: opts.rateLimitPerMinute };
      const key = await adminOk(1, 'POST', `/merchants/${merchant.id}/keys`, {
        body: { label: 'multi-instance test', ...settings },
        idempotencyKey: `seed-k-${randomBytes(8).toString('hex')}`,
        status: 201,
      });
      const walletIds: string[] = [];
      for (const [n, w] of (opts.wallets ?? [{ asset: 'ETH', chain: 'ETH' }]).entries()) {
        const wallet = await adminOk(n % 2, 'POST', `/merchants/${merchant.id}/wallets`, { body: w, status: 201 });
        walletIds.push(wallet.id);
      }
      return {
        merchantId: merchant.id,
        keyId: key.id,
        key: { apiKey: key.apiKey, apiSecret: key.apiSecret },
        walletIds,
      };
    },
    close: cleanup,
  };

  // Ready means: both answer /readyz with Redis up, and both are subscribed to the change feed
  // (until then an instance bypasses its caches, and the invalidation tests would prove nothing).
  const deadline = Date.now() + 15_000;
  for (;;) {
    const ready = await Promise.all(
      urls.map((url, n) =>
        http(n, `${url}/readyz`, {}).then(
          (r) => r.status === 200 && r.json<{ result: { redis: string } }>().result.redis === 'up',
          () => false,
        ),
      ),
    );
    const subscribers = (await redis.pubsub('NUMSUB', `${redisPrefix}invalidate`)) as [string, number];
    if (ready.every(Boolean) && Number(subscribers[1]) === 2) break;
    if (Date.now() > deadline) {
      await cleanup();
      throw new Error(
        `the cluster did not become ready (readyz with Redis up: ${ready.join(', ')}; change-feed subscribers: ${subscribers[1]}); stderr A: ${a.stderr().slice(-2000)}; stderr B: ${b.stderr().slice(-2000)}`,
      );
    }
    await sleep(50);
  }
  return cluster;
}

// --- small tools ----------------------------------------------------------------------------

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `count` tasks with at most `limit` in flight; results in task order. */
export async function bounded<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

/** A small seeded PRNG (mulberry32), so a failing random run can be replayed from its seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
