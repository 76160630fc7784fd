import { randomBytes } from 'node:crypto';
import { SCOPES } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPostgresSchema } from '../../src/store/postgres.js';
import { DIALECTS, TEST_DATABASE_URL } from '../helpers.js';
import { ALICE, BOB, OPERATOR_TOKENS } from '../http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';
import { merchantHeaders } from '../http-helpers/requests.js';
import { eventually, listening, openDownload, POSTINGS_RANGE, seedPostings, type OpenDownload } from './downloads.js';

/**
 * At most two report downloads at once (spec/commerce.md, "Reports"): per merchant, and per
 * operator for GET /admin/v1/reports/{kind}. Downloads are held open for real: a loopback client
 * takes the first bytes of a ledger of 300,000 postings (~30 MB, more than the socket buffers
 * hold) and stops reading, so the server's stream waits on backpressure with its slot taken.
 */
const POSTINGS = 300_000;

describe.each(DIALECTS)('concurrent report downloads on %s', (dialect) => {
  let fx: HttpFixture;
  let key: TestKey;
  let port: number;
  const schema = dialect === 'postgres' ? `hp_rlim_${randomBytes(6).toString('hex')}` : undefined;
  const open: OpenDownload[] = [];

  beforeAll(async () => {
    fx = await createFixture({
      sandbox: true,
      adminTokens: OPERATOR_TOKENS,
      ...(schema === undefined ? {} : { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema }),
    });
    key = await fx.createKey(fx.demo.merchantId, { scopes: [...SCOPES] });
    const wallet = await fx.services.store.db
      .selectFrom('wallets')
      .select('id')
      .where('merchant_id', '=', fx.demo.merchantId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await seedPostings(fx, dialect, schema, wallet.id, POSTINGS);
    port = await listening(fx);
  }, 120_000);
  afterAll(async () => {
    for (const d of open) d.req.destroy();
    await fx.close();
    if (schema !== undefined) await dropPostgresSchema(TEST_DATABASE_URL, schema);
  });

  const merchant = async () => {
    const url = `/api/v1/cp/reports/ledger?${POSTINGS_RANGE}`;
    const d = await openDownload(port, url, await merchantHeaders(fx, key, undefined, { method: 'GET', url }));
    open.push(d);
    return d;
  };
  const operator = async (token: string) => {
    const d = await openDownload(port, `/admin/v1/reports/ledger?${POSTINGS_RANGE}`, {
      authorization: `Bearer ${token}`,
    });
    open.push(d);
    return d;
  };
  const close = async (d: OpenDownload) => {
    d.req.destroy();
    await new Promise((resolve) => (d.res.closed ? resolve(undefined) : d.res.once('close', resolve)));
  };

  it('a merchant’s third download at once is 429 RATE_LIMITED; one that ends frees its slot', async () => {
    const { reports } = fx.services;
    const a = await merchant();
    const b = await merchant();
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(reports.openStreams(fx.demo.merchantId)).toBe(2);
    const c = await merchant();
    expect(c.status).toBe(429);
    expect(c.res.headers['retry-after']).toBe('5');
    expect(JSON.parse(c.body).error.code).toBe('RATE_LIMITED');
    expect(reports.openStreams(fx.demo.merchantId)).toBe(2);
    // The client goes away: the server's stream ends and gives its slot back.
    await close(a);
    expect(await eventually(() => reports.openStreams(fx.demo.merchantId) === 1)).toBe(true);
    const d = await merchant();
    expect(d.status).toBe(200);
    await close(b);
    await close(d);
    expect(await eventually(() => reports.openStreams(fx.demo.merchantId) === 0)).toBe(true);
  }, 60_000);

  it('an operator’s third download at once is 429 RATE_LIMITED; another operator has slots of their own', async () => {
    const a = await operator(ALICE);
    const b = await operator(ALICE);
    expect([a.status, b.status]).toEqual([200, 200]);
    const c = await operator(ALICE);
    expect(c.status).toBe(429);
    expect(JSON.parse(c.body).error.code).toBe('RATE_LIMITED');
    // The merchants' slots are apart from the operators'.
    const m = await merchant();
    expect(m.status).toBe(200);
    const bob = await operator(BOB);
    expect(bob.status).toBe(200);
    await close(a);
    // Alice's slot comes back once the server has seen her client go (no way to read it but to ask).
    let again: OpenDownload | undefined;
    expect(
      await eventually(async () => {
        again = await operator(ALICE);
        return again.status === 200;
      }, 100),
    ).toBe(true);
    for (const d of [b, m, bob, again!]) await close(d);
  }, 60_000);
});
