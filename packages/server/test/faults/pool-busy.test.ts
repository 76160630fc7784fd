import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.js';
import {
  ADMIN_TOKEN,
  adminHeaders,
  postgresAvailable,
  request,
  seedPostgresSchema,
  sleep,
  TEST_DATABASE_URL,
  type SeededSchema,
} from './world.js';

/**
 * Issue 32, item 5: a busy pool is not a dead database. Every pooled connection is held by a
 * query that waits (here on a table lock the test holds for 1.5 s, longer than the 1 s connect
 * timeout), and 60 requests arrive: the queue for a connection is bounded (20 × pool size), so
 * the ones beyond it get 503 STORE_BUSY with Retry-After at once; the ones in it wait and are
 * answered 200 when the lock goes. None gets UNAVAILABLE, and /readyz stays 200 meanwhile (the
 * database answers a probe of its own). Before, pg-pool's one timer turned every wait past the
 * connect timeout into "the store is not reachable" and /readyz into 503.
 *
 * Rate: one burst of 60 requests at a pool of 2 (not a sustained rate).
 */
const POOL_SIZE = 2;
const TIMEOUT_MS = 1000;
const LOCK_MS = 1500;
const REQUESTS = 60;

describe.skipIf(!postgresAvailable)('a busy PostgreSQL pool under hostpay serve', () => {
  let seeded: SeededSchema;
  let server: ServerProcess;

  beforeAll(async () => {
    seeded = await seedPostgresSchema();
    server = await startServerProcess({
      ...seeded.serverEnv,
      HOSTPAY_DATABASE_POOL_SIZE: String(POOL_SIZE),
      HOSTPAY_DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
      HOSTPAY_ADMIN_TOKEN: ADMIN_TOKEN,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.kill();
    await seeded?.remove();
  });

  it('waiting for a connection: a bounded queue, then 503 STORE_BUSY with Retry-After; /readyz stays 200', async () => {
    const url = `${server.url}/admin/v1/merchants/${seeded.demo.merchantId}`;
    expect((await request(url, { headers: adminHeaders })).status).toBe(200);
    const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(`lock table ${seeded.schema}.merchants in access exclusive mode`);
      const started = performance.now();
      const answers = Array.from({ length: REQUESTS }, () => request(url, { headers: adminHeaders }));
      await sleep(TIMEOUT_MS + 200);
      // Past the connect timeout, every connection still busy: the database is up all the same.
      const ready = await request(`${server.url}/readyz`);
      await sleep(Math.max(0, LOCK_MS - (performance.now() - started)));
      await locker.query('commit');
      const all = await Promise.all(answers);

      if (all.some((a) => a.status === 503 && a.body?.error?.code !== 'STORE_BUSY'))
        console.error(server.logs().filter((l) => l.msg === 'service unavailable'));
      expect(ready.status, ready.text).toBe(200);
      const codes = all.map((a) => (a.status === 200 ? '200' : `${a.status} ${a.body?.error?.code}`));
      const busy = all.filter((a) => a.status !== 200);
      expect(codes.filter((c) => c !== '200' && c !== '503 STORE_BUSY')).toEqual([]);
      // Beyond the queue: pool 2 in use + 40 waiting; the rest turned away at once (a few more
      // when the server's own background work — expiry sweep, webhook poll — holds a place).
      expect(busy.length).toBeGreaterThanOrEqual(REQUESTS - POOL_SIZE - 20 * POOL_SIZE);
      expect(busy.length).toBeLessThanOrEqual(REQUESTS - 20 * POOL_SIZE);
      for (const a of busy) {
        expect(a.headers.get('retry-after')).toBe('1');
        expect(a.ms).toBeLessThan(TIMEOUT_MS);
      }
      expect(all.filter((a) => a.status === 200).every((a) => a.ms >= LOCK_MS - 100)).toBe(true);
      console.log(
        `[faults] busy pool (${POOL_SIZE} connections held ${LOCK_MS} ms by a lock, connect timeout ${TIMEOUT_MS} ms, ${REQUESTS} requests at once): ${REQUESTS - busy.length} × 200 after the lock, ${busy.length} × 503 STORE_BUSY at once, /readyz 200 meanwhile`,
      );
    } finally {
      await locker.end();
    }
  }, 60_000);
});
