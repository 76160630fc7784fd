import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../src/services.js';
import { startServerProcess, type LogLine, type ServerProcess } from './server-process.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import { dropRedisKeys } from '../helpers.js';
import {
  MASTER_KEY,
  Merchant,
  postgresAvailable,
  redisAvailable,
  request,
  seedPostgresSchema,
  seedSqlite,
  sleep,
  targetOf,
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  throughProxy,
  waitFor,
  type Answer,
  type SeededSchema,
  type SeededSqlite,
} from './world.js';

/**
 * Redis goes away under a running `hostpay serve`. The server reaches Redis through a TCP proxy
 * (tcp-proxy.ts), never directly: the shared Redis must keep running for everyone else, so the
 * proxy is what goes away — closed (`cut`) or silent (`stall`).
 */
const LIMITED_KEY_RATE = 5;

/** /metrics on the service port answers to operator tokens only: the servers here are given this one. */
const OPERATOR_TOKEN = randomBytes(24).toString('hex');

async function metricRedisUp(url: string): Promise<number | undefined> {
  const scraped = await request(`${url}/metrics`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  const line = /^hostpay_redis_up (-?\d+)$/m.exec(scraped.text);
  return line?.[1] === undefined ? undefined : Number(line[1]);
}

/** /readyz must stay 200 whatever Redis does; returns what it says about Redis. */
async function readyRedis(url: string): Promise<string> {
  const res = await request(`${url}/readyz`);
  expect(res.status, res.text).toBe(200);
  return (res.body as { result: { redis: string } }).result.redis;
}

function expectRateLimitHeaders(res: Answer): void {
  expect(Number(res.headers.get('ratelimit-limit'))).toBeGreaterThan(0);
  expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
  expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
}

const unreachableWarnings = (logs: LogLine[]) => logs.filter((l) => /^Redis unreachable/.test(l.msg));
const backNotices = (logs: LogLine[]) => logs.filter((l) => /^Redis is back/.test(l.msg));

/** A connection of the test's own, straight to Redis: to read the shared counters, and clean up. */
async function directRedis(): Promise<Redis> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  return redis;
}

describe.skipIf(!redisAvailable)('Redis outage under hostpay serve (SQLite store)', () => {
  const prefix = `hp_test_${randomBytes(6).toString('hex')}:`;
  let seeded: SeededSqlite;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let direct: Redis;
  let merchant: Merchant;
  const counterKey = () => `${prefix}rl:key:${seeded.demo.apiKey}`;

  beforeAll(async () => {
    seeded = await seedSqlite(LIMITED_KEY_RATE);
    direct = await directRedis();
    proxy = await startTcpProxy(targetOf(TEST_REDIS_URL, 6379));
    server = await startServerProcess({
      HOSTPAY_DATA_DIR: seeded.dataDir,
      HOSTPAY_MASTER_KEY: MASTER_KEY,
      HOSTPAY_ADMIN_TOKEN: OPERATOR_TOKEN,
      HOSTPAY_REDIS_URL: throughProxy(TEST_REDIS_URL, proxy),
      HOSTPAY_REDIS_PREFIX: prefix,
      HOSTPAY_LOG_LEVEL: 'info',
    });
    await waitFor('Redis up at start', async () => (await readyRedis(server.url)) === 'up');
    merchant = new Merchant(server.url, seeded.demo);
    await merchant.login();
  });

  afterAll(async () => {
    await server?.kill();
    await proxy?.close();
    await dropRedisKeys(direct, prefix);
    seeded?.remove();
  });

  it('unreachable: answers with in-process limits, warns once, reports it in /readyz and /metrics, recovers', async () => {
    expect(await metricRedisUp(server.url)).toBe(1);
    const before = await merchant.get('/api/v1/cp/wallets');
    expect(before.status).toBe(200);
    expectRateLimitHeaders(before);
    // While Redis is up the per-key counter lives there, shared by every instance.
    const sharedCount = Number(await direct.get(counterKey()));
    expect(sharedCount).toBeGreaterThanOrEqual(2);

    const cutAt = performance.now();
    await proxy.cut();
    // Many requests over ~1.5 s: Redis errors on each of them and on every reconnection attempt.
    const answers: Answer[] = [];
    while (performance.now() - cutAt < 1500) {
      const i = answers.length;
      answers.push(
        await merchant.get(
          i % 2 === 0 ? '/api/v1/cp/wallets' : `/api/v1/cp/psp/hosted-pay/fees-preview?amount=${100 + i}&currency=USDT`,
        ),
      );
      await sleep(5);
    }
    expect(answers.length).toBeGreaterThan(30);
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expectRateLimitHeaders(res);
    }
    const slowest = Math.max(...answers.map((r) => r.ms));
    expect(slowest).toBeLessThan(500);
    // Counted in this process now (remaining goes down), while the shared counter stands still.
    const remaining = answers.map((r) => Number(r.headers.get('ratelimit-remaining')));
    expect(remaining.at(-1)).toBeLessThan(remaining[0]!);
    expect(Number(await direct.get(counterKey()))).toBe(sharedCount);

    // A key's own limit still holds: its token request and three reads pass, the fifth read is 429.
    const limited = new Merchant(server.url, seeded.limited);
    await limited.login();
    const statuses: number[] = [];
    let tooMany: Answer | undefined;
    for (let i = 0; i < LIMITED_KEY_RATE; i++) {
      const res = await limited.get('/api/v1/cp/wallets');
      statuses.push(res.status);
      if (res.status === 429) tooMany ??= res;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(tooMany!.body).toMatchObject({ status: false, error: { code: 'RATE_LIMITED' } });
    expect(Number(tooMany!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(tooMany!.headers.get('ratelimit-remaining')).toBe('0');

    // The operator sees it: still ready (200) with redis down, gauge 0, one warning in the log.
    expect(await readyRedis(server.url)).toBe('down');
    expect(await metricRedisUp(server.url)).toBe(0);
    const warnings = unreachableWarnings(server.logs());
    expect(warnings, server.stderr().slice(-3000)).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);

    const restoredAt = performance.now();
    await proxy.restore();
    await waitFor('/readyz says redis up', async () => (await readyRedis(server.url)) === 'up', 8000, 50);
    const recoveryMs = performance.now() - restoredAt;
    expect(await metricRedisUp(server.url)).toBe(1);
    expect((await merchant.get('/api/v1/cp/wallets')).status).toBe(200);
    expect(Number(await direct.get(counterKey()))).toBe(sharedCount + 1);
    expect(unreachableWarnings(server.logs())).toHaveLength(1);
    expect(backNotices(server.logs())).toHaveLength(1);
    expect(server.logs().filter((l) => l.level >= 50)).toEqual([]);
    expect(server.alive).toBe(true);
    console.log(
      `[faults] Redis unreachable: ${answers.length} requests in 1.5 s all 200 (slowest ${slowest.toFixed(0)} ms), limited key 429 on its 6th request, 1 warning; /readyz redis up again ${recoveryMs.toFixed(0)} ms after restore`,
    );
  });

  it('stops answering (partition): requests keep answering, and it recovers once Redis is reachable again', async () => {
    await waitFor('Redis up', async () => (await readyRedis(server.url)) === 'up');
    const warningsBefore = unreachableWarnings(server.logs()).length;
    proxy.stall();
    const answers: Answer[] = [];
    const stalledAt = performance.now();
    while (performance.now() - stalledAt < 2500) {
      answers.push(await merchant.get('/api/v1/cp/wallets'));
      await sleep(20);
    }
    for (const res of answers) {
      expect(res.status, res.text).toBe(200);
      expectRateLimitHeaders(res);
    }
    // The first requests wait out the command timeout (500 ms per Redis command); once the
    // silent connection is dropped, requests no longer wait for Redis at all.
    const lastSecond = answers.slice(-10);
    expect(Math.max(...answers.map((r) => r.ms))).toBeLessThan(1500);
    expect(Math.max(...lastSecond.map((r) => r.ms))).toBeLessThan(200);
    expect(await readyRedis(server.url)).toBe('down');
    expect(await metricRedisUp(server.url)).toBe(0);

    const restoredAt = performance.now();
    await proxy.restore();
    await waitFor('/readyz says redis up', async () => (await readyRedis(server.url)) === 'up', 8000, 50);
    const recoveryMs = performance.now() - restoredAt;
    expect(await metricRedisUp(server.url)).toBe(1);
    expect(unreachableWarnings(server.logs())).toHaveLength(warningsBefore + 1);
    expect(server.alive).toBe(true);
    const firstMs = answers[0]!.ms;
    console.log(
      `[faults] Redis partitioned: ${answers.length} requests in 2.5 s all 200 (first ${firstMs.toFixed(0)} ms, last ten at most ${Math.max(...lastSecond.map((r) => r.ms)).toFixed(0)} ms); /readyz redis up again ${recoveryMs.toFixed(0)} ms after the partition ended`,
    );
  });
});

/**
 * Several instances share PostgreSQL and Redis; a cached read stays exact only while the
 * instance receives the others' invalidations. After a partition that left its subscription
 * silently dead, it must notice and resubscribe, not serve its caches for good.
 */
describe.skipIf(!redisAvailable || !postgresAvailable)('Redis partition and the change feed (PostgreSQL store)', () => {
  const prefix = `hp_test_${randomBytes(6).toString('hex')}:`;
  let seeded: SeededSchema;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let other: Services;
  let direct: Redis;

  beforeAll(async () => {
    seeded = await seedPostgresSchema();
    direct = await directRedis();
    proxy = await startTcpProxy(targetOf(TEST_REDIS_URL, 6379));
    server = await startServerProcess({
      ...seeded.serverEnv,
      HOSTPAY_ADMIN_TOKEN: OPERATOR_TOKEN,
      HOSTPAY_REDIS_URL: throughProxy(TEST_REDIS_URL, proxy),
      HOSTPAY_REDIS_PREFIX: prefix,
    });
    // Another instance, in this process, straight to Redis: its writes publish invalidations.
    other = await createServices(
      {
        dataDir: seeded.dataDir,
        databaseUrl: TEST_DATABASE_URL,
        databaseSchema: seeded.schema,
        masterKey: MASTER_KEY,
        redisUrl: TEST_REDIS_URL,
        redisPrefix: prefix,
      },
      { log: { warn: () => undefined, info: () => undefined } },
    );
  });

  afterAll(async () => {
    await server?.kill();
    await other?.close();
    await proxy?.close();
    await dropRedisKeys(direct, prefix);
    await seeded?.remove();
  });

  it('a write on another instance is seen again after the partition ends', async () => {
    await waitFor(
      'both instances on Redis',
      async () => (await readyRedis(server.url)) === 'up' && other.shared.cachesSafe,
    );
    const merchant = new Merchant(server.url, seeded.demo);
    await merchant.login();
    const wallet = async () => {
      const res = await merchant.get('/api/v1/cp/wallets');
      expect(res.status).toBe(200);
      return (res.body as { result: { id: string; amount: number }[] }).result[0]!;
    };
    const first = await wallet();
    let postings = 0;
    const credit = async () => {
      await other.admin.post(
        { walletId: first.id, kind: 'credit', amount: '1', idempotencyKey: `faults-${++postings}` },
        { operator: 'faults' },
      );
    };
    // The feed works: a credit on the other instance shows up here.
    await credit();
    await waitFor('credit seen through the feed', async () => (await wallet()).amount === first.amount + 1, 3000, 50);

    proxy.stall();
    await waitFor(
      '/readyz says redis down',
      async () => {
        await wallet();
        return (await readyRedis(server.url)) === 'down';
      },
      5000,
      50,
    );
    await proxy.restore();
    await waitFor('/readyz says redis up', async () => (await readyRedis(server.url)) === 'up', 8000, 50);

    const creditedAt = performance.now();
    await credit();
    await waitFor(
      'credit after the partition seen',
      async () => (await wallet()).amount === first.amount + 2,
      5000,
      50,
    );
    const seenMs = performance.now() - creditedAt;
    expect(server.alive).toBe(true);
    console.log(
      `[faults] Redis partition and change feed: a credit on the other instance was served here ${seenMs.toFixed(0)} ms after it, once the partition ended`,
    );
  });
});
