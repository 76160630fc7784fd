import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';
import {
  ADMIN_TOKEN,
  adminHeaders,
  MASTER_KEY,
  Merchant,
  postgresAvailable,
  request,
  seedPostgresSchema,
  sleep,
  targetOf,
  TEST_DATABASE_URL,
  throughProxy,
  waitFor,
  type Answer,
  type SeededSchema,
} from './world.js';

/**
 * PostgreSQL goes away under a running `hostpay serve` (a real process, production settings).
 * The server reaches PostgreSQL through a TCP proxy (tcp-proxy.ts), never directly: the shared
 * PostgreSQL must keep running for everyone else, so the proxy is what stops answering.
 */
const TIMEOUT_MS = 500;
/** What a request may take while the store is away: connect or statement timeout, and a margin. */
const BUDGET_MS = 2 * TIMEOUT_MS + 500;
/**
 * What a request may take while the database is partitioned (config.ts, databaseTimeoutMs): the
 * read timeout of a dead pooled connection (2.5 × the timeout), plus at most one connect timeout
 * spent waiting for a connection or opening one, plus 250 ms of scheduling on a loaded machine.
 * Measured: 1,258–1,495 ms quiet, 1,500.03 ms in a loaded CI run (over the old 1,500 budget).
 */
const PARTITION_BUDGET_MS = 2.5 * TIMEOUT_MS + TIMEOUT_MS + 250;
const POOL_SIZE = 4;
const CREATE_BODY = '{"amount":"10","currency":"EUR","paymentOptions":[{"asset":"USDT","chain":"TRON"}]}';

interface Outcome {
  name: string;
  startedAt: number;
  endedAt: number;
  answer?: Answer;
  error?: string;
}

/** Asserts a 503 UNAVAILABLE envelope whose request id is the x-request-id header. */
function expectUnavailable(o: Outcome): void {
  const what = `${o.name}: ${o.error ?? `${o.answer!.status} ${o.answer!.text}`}`;
  expect(o.answer?.status, what).toBe(503);
  const body = o.answer!.body as {
    status: boolean;
    isSuccess: boolean;
    result: unknown;
    error: { code: string; requestId: string };
  };
  expect(body, what).toMatchObject({ status: false, isSuccess: false, result: null, error: { code: 'UNAVAILABLE' } });
  expect(body.error.requestId, what).toMatch(/^req_/);
  expect(o.answer!.headers.get('x-request-id'), what).toBe(body.error.requestId);
}

describe.skipIf(!postgresAvailable)('PostgreSQL outage under hostpay serve', () => {
  let seeded: SeededSchema;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let merchant: Merchant;
  // Requests that must reach the store: admin reads are never cached, an admin write is a
  // transaction, a merchant's checkout list is read from the store each time, and /readyz pings
  // the store, and so does a checkout create. (A fee preview of a new amount no longer is one: the schedule and rate it needs
  // are cached facts, so it keeps answering through an outage.)
  let probes: [name: string, send: () => Promise<Answer>][];
  let creates = 0;

  const ok = (a: Answer) => a.status >= 200 && a.status < 300;
  const allProbesOk = async () => (await Promise.all(probes.map(([, send]) => send()))).every(ok);

  /** Runs `workers` loops over the probes until `stop()`; every answer (or network error) is kept. */
  function flow(workers: number): { outcomes: Outcome[]; t0: number; stop(): Promise<void> } {
    const outcomes: Outcome[] = [];
    const t0 = performance.now();
    let running = true;
    const loop = async (offset: number): Promise<void> => {
      for (let i = offset; running; i++) {
        const [name, send] = probes[i % probes.length]!;
        const startedAt = performance.now() - t0;
        try {
          const answer = await send();
          outcomes.push({ name, startedAt, endedAt: performance.now() - t0, answer });
        } catch (err) {
          outcomes.push({ name, startedAt, endedAt: performance.now() - t0, error: String(err) });
        }
        await sleep(10);
      }
    };
    const loops = Array.from({ length: workers }, (_, i) => loop(i));
    return {
      outcomes,
      t0,
      async stop() {
        running = false;
        await Promise.all(loops);
      },
    };
  }

  beforeAll(async () => {
    seeded = await seedPostgresSchema();
    proxy = await startTcpProxy(targetOf(TEST_DATABASE_URL, 5432));
    server = await startServerProcess({
      HOSTPAY_DATABASE_URL: throughProxy(TEST_DATABASE_URL, proxy),
      HOSTPAY_DATABASE_SCHEMA: seeded.schema,
      HOSTPAY_DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
      HOSTPAY_DATABASE_POOL_SIZE: String(POOL_SIZE),
      HOSTPAY_MASTER_KEY: MASTER_KEY,
      HOSTPAY_ADMIN_TOKEN: ADMIN_TOKEN,
      HOSTPAY_DATA_DIR: seeded.dataDir,
      HOSTPAY_LOG_LEVEL: 'warn',
    });
    merchant = new Merchant(server.url, seeded.demo);
    await merchant.login();
    const { merchantId } = seeded.demo;
    probes = [
      [
        'admin GET merchant',
        () => request(`${server.url}/admin/v1/merchants/${merchantId}`, { headers: adminHeaders }),
      ],
      [
        'admin GET wallets',
        () => request(`${server.url}/admin/v1/wallets?merchantId=${merchantId}`, { headers: adminHeaders }),
      ],
      [
        'admin POST merchant',
        () =>
          request(`${server.url}/admin/v1/merchants`, {
            method: 'POST',
            headers: { ...adminHeaders, 'content-type': 'application/json' },
            body: '{"name":"Outage Shop"}',
          }),
      ],
      ['checkout list', () => merchant.get('/api/v1/cp/psp/hosted-pay?limit=1')],
      // Written in batches on PostgreSQL (features/checkouts/create-batch.ts): a batch's statement
      // failing on a dead connection must still answer each of its creates 503.
      // A signed write is single-use and timestamps are whole seconds: the loops send dozens of
      // creates a second, so each body is distinct (a fresh signature in the same second) rather
      // than the timestamp pushed ahead a second per create, past the ±60 s window.
      [
        'checkout create',
        () => {
          const body = `${CREATE_BODY.slice(0, -1)},"metadata":{"probe":"${++creates}"}}`;
          return request(`${server.url}/api/v1/cp/psp/hosted-pay`, {
            method: 'POST',
            headers: {
              ...merchant.signed(body, { method: 'POST', path: '/api/v1/cp/psp/hosted-pay' }),
              authorization: `Bearer ${merchant.token}`,
              'content-type': 'application/json',
            },
            body,
          });
        },
      ],
      ['readyz', () => request(`${server.url}/readyz`)],
    ];
  });

  afterAll(async () => {
    if (server !== undefined && !server.alive)
      console.error(`hostpay serve died: ${String(await server.exited)}\n${server.stderr().slice(-4000)}`);
    await server?.kill();
    await proxy?.close();
    await seeded?.remove();
  });

  it('stopped while requests flow: 503 UNAVAILABLE within the timeout, no crash, recovery without a restart', async () => {
    for (const [name, send] of probes) expect(ok(await send()), name).toBe(true);
    const walletsBefore = await merchant.get('/api/v1/cp/wallets');
    expect(walletsBefore.status).toBe(200);

    const traffic = flow(4);
    await sleep(300);
    // Hold the next queries in the proxy for a moment, so some are in flight when it goes down:
    // their connections break mid-query.
    proxy.delayMs = 300;
    await sleep(150);
    const cutAt = performance.now() - traffic.t0;
    await proxy.cut();
    proxy.delayMs = 0;
    await sleep(2000);

    // What a merchant sees meanwhile on reads that need no query: the wallet list cached before
    // the outage is served as it was (200, same body; without Redis this instance is the only
    // writer, and nothing can be written while the store is down, so the cache is still exact),
    // and the token endpoint works (key from the cache, token signed in memory).
    const walletsDuring = await merchant.get('/api/v1/cp/wallets');
    const tokenDuring = await merchant.requestToken();
    const restoreAt = performance.now() - traffic.t0;
    await proxy.restore();
    const recoveryMs = await waitFor('every probe succeeds again', allProbesOk, 5000, 50);
    await traffic.stop();

    expect(server.alive).toBe(true);
    const { outcomes } = traffic;
    expect(outcomes.filter((o) => o.error !== undefined).map((o) => `${o.name}: ${o.error}`)).toEqual([]);
    expect(outcomes.filter((o) => o.answer!.status === 500).map((o) => o.answer!.text)).toEqual([]);
    // In flight at the cut: either answered before it, or 503.
    const straddling = outcomes.filter((o) => o.startedAt <= cutAt && o.endedAt >= cutAt);
    for (const o of straddling) if (!ok(o.answer!)) expectUnavailable(o);
    // Sent while it was down: every one a 503 envelope, each within the budget.
    const during = outcomes.filter((o) => o.startedAt > cutAt && o.endedAt < restoreAt);
    expect(during.length).toBeGreaterThan(50);
    for (const o of during) expectUnavailable(o);
    const slowest = Math.max(...[...straddling, ...during].map((o) => o.answer!.ms));
    expect(slowest).toBeLessThan(BUDGET_MS);
    // Some queries really were cut mid-way (the case that used to kill the process).
    const midQuery = server
      .logs()
      .filter((l) => l.msg === 'service unavailable' && /Connection terminated/.test(JSON.stringify(l.err)));
    expect(midQuery.length).toBeGreaterThan(0);
    expect(server.logs().filter((l) => l.level >= 50)).toEqual([]);

    // Without Redis the caches listen on PostgreSQL (LISTEN/NOTIFY); that connection dies with the
    // database, so caches are bypassed and reads answered before the cut need the store too.
    for (const during of [walletsDuring, tokenDuring]) {
      expect(during.status).toBe(503);
      expect(JSON.parse(during.text)).toMatchObject({ status: false, error: { code: 'UNAVAILABLE' } });
    }
    expect(walletsBefore.status).toBe(200);

    const median = during.map((o) => o.answer!.ms).sort((a, b) => a - b)[during.length >> 1]!;
    console.log(
      `[faults] PostgreSQL stopped: ${during.length} requests during the outage, all 503 UNAVAILABLE, median ${median.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms (budget ${BUDGET_MS}); ${straddling.length} in flight at the cut (${midQuery.length} cut mid-query); every probe 2xx again ${recoveryMs.toFixed(0)} ms after restore`,
    );
  });

  it('stops answering (partition, every pooled connection dead): 503 within the timeout, then recovery', async () => {
    await waitFor('healthy', allProbesOk);
    // Fill the pool (queries held a moment, so the requests overlap), so every connection it
    // holds goes dead with the partition.
    proxy.delayMs = 100;
    await Promise.all(Array.from({ length: 2 * POOL_SIZE }, () => probes[0]![1]()));
    proxy.delayMs = 0;
    // The pool, plus the LISTEN connections of the change feed and of the webhook worker's
    // wake-ups once they have reconnected after the previous test's outage (each retries every second).
    expect(proxy.openConnections).toBeGreaterThanOrEqual(POOL_SIZE);
    expect(proxy.openConnections).toBeLessThanOrEqual(POOL_SIZE + 2);

    proxy.stall();
    const outcomes: Outcome[] = [];
    const t0 = performance.now();
    // Concurrent requests get the dead pooled connections (read timeout) or wait for a
    // connection (connect timeout); later ones open new connections that never answer.
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        probes.map(async ([name, send]) => {
          const startedAt = performance.now() - t0;
          const answer = await send();
          outcomes.push({ name, startedAt, endedAt: performance.now() - t0, answer });
        }),
      );
    }
    await proxy.restore();
    const recoveryMs = await waitFor('every probe succeeds again', allProbesOk, 8000, 50);

    expect(server.alive).toBe(true);
    for (const o of outcomes) expectUnavailable(o);
    const slowest = Math.max(...outcomes.map((o) => o.answer!.ms));
    expect(slowest).toBeLessThan(PARTITION_BUDGET_MS);
    expect(server.logs().filter((l) => l.level >= 50)).toEqual([]);
    console.log(
      `[faults] PostgreSQL partitioned: ${outcomes.length} requests, all 503 UNAVAILABLE, slowest ${slowest.toFixed(0)} ms (budget ${PARTITION_BUDGET_MS}); every probe 2xx again ${recoveryMs.toFixed(0)} ms after the partition ended`,
    );
  });
});
