import { get as httpGet, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { TEST_DATABASE_URL, type Dialect } from '../helpers.js';
import type { HttpFixture } from '../http-helpers/fixture.js';

/**
 * Report downloads over a real loopback socket (inject reads a whole answer before it returns, so
 * it cannot hold a download open): the tests that need a download in progress open it here, take
 * its first bytes and stop reading, so the server waits on the socket with the stream open.
 */

/** The first posting's time: postings are 10 ms apart from here. */
export const POSTINGS_START = Date.parse('2026-01-01T00:00:00Z');

/**
 * `n` credit postings of 1 on `walletId`, 10 ms apart from POSTINGS_START, written straight into
 * the table (as bench/reports.ts does). On PostgreSQL through a connection of its own without the
 * store's statement timeout, into `schema`.
 */
export async function seedPostings(
  fx: HttpFixture,
  dialect: Dialect,
  schema: string | undefined,
  walletId: string,
  n: number,
): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n})
      insert into ledger_postings (id, wallet_id, kind, amount, idempotency_key, amount_after, freeze_amount_after, created_at)
      select 'pst_t' || printf('%09d', i), ${walletId}, 'credit', '1', 'test:' || i, cast(i as text), '0',
        strftime('%Y-%m-%dT%H:%M:%fZ', ${POSTINGS_START / 1000} + i * 0.01, 'unixepoch')
      from s`.execute(fx.services.store.db);
    return;
  }
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`set search_path = ${schema}`);
    await client.query(
      `insert into ledger_postings (id, wallet_id, kind, amount, idempotency_key, amount_after, freeze_amount_after, created_at)
       select 'pst_t' || lpad(i::text, 9, '0'), $1, 'credit', 1, 'test:' || i, i, 0,
         $2::timestamptz + i * interval '10 milliseconds'
       from generate_series(1, $3::int) as i`,
      [walletId, new Date(POSTINGS_START).toISOString(), n],
    );
    await client.query('analyze ledger_postings');
  } finally {
    await client.end();
  }
}

/** The range holding every seeded posting, as a query string. */
export const POSTINGS_RANGE = `from=${new Date(POSTINGS_START).toISOString()}&to=${new Date(POSTINGS_START + 86_400_000).toISOString()}`;

export interface OpenDownload {
  status: number;
  /** The body of an answer other than 200; empty for a download in progress. */
  body: string;
  req: ClientRequest;
  res: IncomingMessage;
}

/** Starts the app listening on loopback (once) and gives its port. */
export async function listening(fx: HttpFixture): Promise<number> {
  if (!fx.app.server.listening) await fx.app.listen({ host: '127.0.0.1', port: 0 });
  return (fx.app.server.address() as AddressInfo).port;
}

/**
 * GETs `path`; a 200 is paused after its first chunk (the download stays open on the server,
 * held by backpressure), any other answer is read whole.
 */
export function openDownload(port: number, path: string, headers: Record<string, string>): Promise<OpenDownload> {
  return new Promise((resolve, reject) => {
    const req = httpGet({ host: '127.0.0.1', port, path, headers }, (res) => {
      if (res.statusCode !== 200) {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, req, res }));
        return;
      }
      res.once('data', () => {
        res.pause();
        resolve({ status: 200, body: '', req, res });
      });
    });
    req.on('error', reject);
  });
}

/** Waits (a bounded number of turns, no timing asserted) until `done()` holds; gives whether it did. */
export async function eventually(done: () => boolean | Promise<boolean>, turns = 500): Promise<boolean> {
  for (let i = 0; i < turns; i++) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done();
}
