import { CHECKOUT_PATHS } from '@hostpay/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.js';
import {
  Merchant,
  merchantPost,
  postgresAvailable,
  seedPostgresSchema,
  sleep,
  TEST_DATABASE_URL,
  type SeededSchema,
} from './world.js';

/**
 * Issue 32, item 1: an Idempotency-Key is never stuck. The reproduction of the issue: a create
 * with key K waits on a lock of `event_sequences`, the instance is killed with SIGKILL while it
 * holds K's pending claim, and is started again. Before, every retry of K waited 5 s and got 409
 * "still being processed" until retention ended (24 h), and no checkout was ever made. Now the
 * restarted instance (same instance id, <dataDir>/instance-id) sees the claim belongs to its
 * earlier run, takes it over and runs the create (it never committed): 201, and later retries
 * replay that answer. One checkout for the order, not two.
 *
 * Rate: single requests (no load).
 */
describe.skipIf(!postgresAvailable)('a keyed create in flight when the instance is killed (PostgreSQL)', () => {
  let seeded: SeededSchema;
  const servers: ServerProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    seeded = await seedPostgresSchema();
    env = seeded.serverEnv;
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) await s.kill();
    await seeded?.remove();
  });

  it('the retry after the restart runs the create once; later retries replay it', async () => {
    const first = await startServerProcess(env);
    servers.push(first);
    const m1 = new Merchant(first.url, seeded.demo);
    await m1.login();
    const key = `crash-${Date.now()}`;
    const body = { amount: '25', currency: 'USDT', orderId: key, paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] };

    const locker = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(`lock table ${seeded.schema}.event_sequences in access exclusive mode`);
      const inFlight = merchantPost(m1, CHECKOUT_PATHS.checkouts, body, { 'idempotency-key': key }).catch(
        (err: unknown) => err,
      );
      await sleep(1000);
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      await inFlight;
    } finally {
      await locker.query('commit').catch(() => undefined);
      await locker.end();
    }

    const second = await startServerProcess(env);
    servers.push(second);
    const m2 = new Merchant(second.url, seeded.demo);
    m2.token = m1.token;
    const retry = await merchantPost(m2, CHECKOUT_PATHS.checkouts, body, { 'idempotency-key': key });
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const again = await merchantPost(m2, CHECKOUT_PATHS.checkouts, body, { 'idempotency-key': key });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.result.id).toBe(retry.body.result.id);

    const check = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await check.connect();
    try {
      const made = await check.query(`select id from ${seeded.schema}.checkouts where order_id = $1`, [key]);
      expect(made.rows.map((r: { id: string }) => r.id)).toEqual([retry.body.result.id]);
    } finally {
      await check.end();
    }
    console.log(
      '[faults] keyed create killed mid-flight: the retry after the restart answered 201 at once, then replays',
    );
  }, 90_000);
});
