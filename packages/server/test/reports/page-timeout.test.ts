import { randomBytes } from 'node:crypto';
import { SCOPES } from '@hostpay/protocol';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportStream } from '../../src/features/reports/stream.js';
import { dropPostgresSchema, openPostgresStore } from '../../src/store/postgres.js';
import { TEST_DATABASE_URL } from '../helpers.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';
import { merchantHeaders } from '../http-helpers/requests.js';
import { eventually, listening, openDownload, POSTINGS_RANGE, POSTINGS_START, seedPostings } from './downloads.js';

/**
 * A report page that the database does not answer in time, on PostgreSQL for real: another
 * session holds `ledger_postings` in ACCESS EXCLUSIVE mode, so the next page query waits on the
 * lock. Past the statement timeout the download is aborted (no clean end of file: the client
 * sees the connection cut, not a chunked end); past the report page pool's own read timer
 * (`Store.arrayRows`) the page fails, that pool is replaced, and the next download reads again.
 * PostgreSQL only: SQLite readers never wait on a writer's lock (WAL).
 */
const POSTINGS = 300_000;

describe('report pages past their time on postgres', () => {
  let fx: HttpFixture;
  let key: TestKey;
  let walletId: string;
  const schema = `hp_rtmo_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    // databaseTimeoutMs 1000: statement timeout 2 s, the page pool's read timer 2.5 s.
    fx = await createFixture({
      sandbox: true,
      databaseUrl: TEST_DATABASE_URL,
      databaseSchema: schema,
      databaseTimeoutMs: 1000,
    });
    key = await fx.createKey(fx.demo.merchantId, { scopes: [...SCOPES] });
    walletId = (
      await fx.services.store.db
        .selectFrom('wallets')
        .select('id')
        .where('merchant_id', '=', fx.demo.merchantId)
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    await seedPostings(fx, 'postgres', schema, walletId, POSTINGS);
  }, 120_000);
  afterAll(async () => {
    await fx.close();
    await dropPostgresSchema(TEST_DATABASE_URL, schema);
  });

  /** Another session's lock on the postings; `release` rolls it back. */
  async function lockPostings(): Promise<{ release(): Promise<void> }> {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`set search_path = ${schema}`);
    await client.query('begin');
    // Waits for a page query in flight to finish; every later one waits for the rollback.
    await client.query('lock table ledger_postings in access exclusive mode');
    return {
      async release() {
        await client.query('rollback');
        await client.end();
      },
    };
  }

  it('a page past the statement timeout aborts the download: the connection is cut, not ended', async () => {
    const port = await listening(fx);
    const url = `/api/v1/cp/reports/ledger?${POSTINGS_RANGE}`;
    const d = await openDownload(port, url, await merchantHeaders(fx, key, undefined, { method: 'GET', url }));
    expect(d.status).toBe(200);
    expect(d.res.headers['transfer-encoding']).toBe('chunked');
    // The client has stopped reading: the server waits on the socket, a page or two read ahead.
    const lock = await lockPostings();
    let bytes = 0;
    let ended = false;
    let failed: Error | undefined;
    try {
      await new Promise<void>((resolve) => {
        d.res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        d.res.on('end', () => {
          ended = true;
        });
        d.res.on('error', (err) => {
          failed = err;
        });
        d.res.on('close', () => resolve());
        d.res.resume();
      });
    } finally {
      await lock.release();
    }
    expect(ended).toBe(false);
    expect(d.res.complete).toBe(false);
    expect(failed?.message).toMatch(/aborted|ECONNRESET|socket hang up/);
    // Far from the whole file (~100 bytes a posting): the download stopped where the lock began.
    expect(bytes).toBeLessThan(POSTINGS * 90);
    // The lock gone, the same download runs to its clean end.
    const again = await fx.app.inject({
      method: 'GET',
      url: `/api/v1/cp/reports/ledger?from=${new Date(POSTINGS_START).toISOString()}&to=${new Date(POSTINGS_START + 60_000).toISOString()}`,
      headers: await merchantHeaders(fx, key, undefined, {
        method: 'GET',
        url: `/api/v1/cp/reports/ledger?from=${new Date(POSTINGS_START).toISOString()}&to=${new Date(POSTINGS_START + 60_000).toISOString()}`,
      }),
    });
    expect(again.statusCode).toBe(200);
    expect(again.body.trimEnd().split('\r\n')).toHaveLength(1 + 5999);
    // Both downloads, the aborted one too, gave their slots back.
    expect(await eventually(() => fx.services.reports.openStreams(fx.demo.merchantId) === 0)).toBe(true);
  }, 60_000);

  it('a page past the page pool’s read timer fails the stream; the pool is replaced and the next stream reads', async () => {
    // A store whose read timer (400 ms) comes long before its statement timeout (20 s): what a
    // database that went silent looks like from here.
    const store = await openPostgresStore(TEST_DATABASE_URL, {
      schema,
      statementTimeoutMs: 20_000,
      readTimeoutMs: 400,
    });
    const req = {
      merchantId: fx.demo.merchantId,
      kind: 'ledger' as const,
      format: 'csv' as const,
      range: { from: new Date(POSTINGS_START).toISOString(), to: new Date(POSTINGS_START + 60_000).toISOString() },
      pageRows: 100,
    };
    try {
      let released = 0;
      const stream = await reportStream(store, req, () => released++);
      const it = stream[Symbol.asyncIterator]();
      expect((await it.next()).done).toBe(false);
      const lock = await lockPostings();
      let failure: unknown;
      let chunks = 0;
      try {
        for (;;) {
          const r = await it.next();
          if (r.done) break;
          chunks++;
        }
      } catch (err) {
        failure = err;
      } finally {
        await lock.release();
      }
      expect((failure as Error | undefined)?.message).toBe('Query read timeout');
      // At most the pages read before the lock took hold, of 60.
      expect(chunks).toBeLessThan(10);
      expect(released).toBe(1);
      // A fresh pool: the same report reads to its end.
      let text = '';
      for await (const chunk of await reportStream(store, req, () => undefined)) text += String(chunk);
      expect(text.trimEnd().split('\r\n')).toHaveLength(1 + 5999);
    } finally {
      await store.close();
    }
  }, 60_000);
});
