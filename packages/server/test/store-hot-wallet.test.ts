import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyedQueue } from '../src/features/ledger/wallet-queue.js';
import { createServices, type Services } from '../src/services.js';
import { dropPostgresSchema, openPostgresStore } from '../src/store/postgres.js';
import { postgresAvailable, TEST_DATABASE_URL } from './helpers.js';

/**
 * Issue 26 item 22: on a loaded machine the ledger-concurrency suite (2,000 postings to one wallet
 * through two instances) got 503 UNAVAILABLE from a healthy database. Every posting waiting for
 * the wallet's row lock held a pooled connection while it waited, so the pool filled with waiters,
 * the rest of the requests of that instance waited for a connection past the connect timeout
 * (which pg-pool also applies to that wait), and the lock waits counted against the statement
 * timeout. Here the other instance's posting is a transaction that holds the row lock for 500 ms.
 */
const ctx = { operator: 'test' };

describe('the posting queue keeps waiting out of the database', () => {
  it('runs tasks of one key one at a time, in order; a failure does not stop the next; keys are independent', async () => {
    const queue = keyedQueue();
    const log: string[] = [];
    const task =
      (name: string, ms: number, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      queue('w1', task('a', 30)),
      queue('w1', task('b', 5, true)),
      queue('w1', task('c', 1)),
      queue('w2', task('x', 10)),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'a',
      'b',
      'c',
      'x',
    ]);
    expect(log.filter((l) => !l.endsWith('x'))).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    // w2 did not wait for w1's tasks.
    expect(log.indexOf('end x')).toBeLessThan(log.indexOf('end a'));
  });

  it('when the store is unreachable for the task at the head, the tasks queued behind it fail at once with that error', async () => {
    const down = Object.assign(new Error('timeout exceeded when trying to connect'), { unavailable: true });
    const queue = keyedQueue((err) => (err as { unavailable?: boolean }).unavailable === true);
    const ran: string[] = [];
    const results = await Promise.allSettled([
      queue('w', async () => {
        ran.push('head');
        throw down;
      }),
      queue('w', async () => ran.push('second')),
      queue('w', async () => ran.push('third')),
    ]);
    expect(ran).toEqual(['head']);
    expect(results.map((r) => (r.status === 'rejected' ? r.reason : r.value))).toEqual([down, down, down]);
    // A task queued once the outage answer is out runs again (the next request tries the store).
    expect(await queue('w', async () => 'later')).toBe('later');
  });
});

describe.runIf(postgresAvailable)(
  'a hot wallet on PostgreSQL, pool of 3, 300 ms connect timeout (also the wait for a pooled connection)',
  () => {
    let services: Services;
    let schema: string;
    let dataDir: string;
    let walletId: string;
    let merchantId: string;
    let locker: pg.Client;

    beforeAll(async () => {
      schema = `hp_test_${randomBytes(6).toString('hex')}`;
      dataDir = mkdtempSync(join(tmpdir(), 'hostpay-hot-wallet-'));
      const store = await openPostgresStore(TEST_DATABASE_URL, {
        schema,
        max: 3,
        connectTimeoutMs: 300,
        statementTimeoutMs: 3_000,
      });
      services = await createServices(
        { dataDir, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema, masterKey: '' },
        { generateMasterKey: true, store, expirySweepMs: 0 },
      );
      merchantId = (await services.admin.createMerchant('Hot', ctx)).id;
      walletId = (await services.admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
      await services.admin.post({ walletId, kind: 'credit', amount: '100' }, ctx);
      locker = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` });
      await locker.connect();
    }, 60_000);
    afterAll(async () => {
      await locker?.end();
      await services?.close();
      await dropPostgresSchema(TEST_DATABASE_URL, schema);
      rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    it('30 postings queued behind a held row lock all apply, and other requests are answered meanwhile', async () => {
      await locker.query('begin');
      await locker.query('select id from wallets where id = $1 for update', [walletId]);
      let released = false;
      const postings = Array.from({ length: 30 }, (_, n) =>
        services.admin.post({ walletId, kind: 'credit', amount: '1', idempotencyKey: `hot-${n}` }, ctx).then(
          (r) => ({ ok: true as const, after: r.posting.amount_after }),
          (err: { code?: string; message?: string }) => ({ ok: false as const, error: `${err.code} ${err.message}` }),
        ),
      );
      // Something unrelated, while the postings wait: it needs a connection, not the lock.
      const other = services.admin.getMerchant(merchantId).then(
        (m) => ({ ok: true as const, answeredWhileLocked: !released, name: m.name }),
        (err: { code?: string; message?: string }) => ({ ok: false as const, error: `${err.code} ${err.message}` }),
      );
      await new Promise((r) => setTimeout(r, 500));
      released = true;
      await locker.query('commit');

      expect(await other).toEqual({ ok: true, answeredWhileLocked: true, name: 'Hot' });
      const outcomes = await Promise.all(postings);
      expect(outcomes.filter((o) => !o.ok)).toEqual([]);
      // Applied one after another: balances 101 … 130, each once.
      const after = outcomes.map((o) => (o.ok ? Number(o.after) : 0)).sort((a, b) => a - b);
      expect(after).toEqual(Array.from({ length: 30 }, (_, n) => 101 + n));
      expect(String((await services.admin.getWallet(walletId)).amount)).toBe('130');
    }, 30_000);
  },
);
