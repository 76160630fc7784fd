import { Decimal, decimalText, parseExactJson } from '@hostpay/protocol';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { seedDemoCheckouts } from '../src/demo/checkouts.js';
import { seedDemo } from '../src/demo/seed.js';
import { ALICE, OPERATOR_TOKENS } from './http-helpers/admin-fixture.js';
import { DIALECTS, tempServices, type TempEnv } from './helpers.js';

/**
 * GET /admin/v1/stats, the console overview's figures, on both stores: each figure is checked
 * against the rows it summarises (postings, wallets, checkouts, webhook attempts), read exactly.
 */
const DAY = 86_400_000;
const T0 = Date.parse('2027-03-10T09:00:00Z');

describe.each(DIALECTS)('stats on %s', (dialect) => {
  const clock = { ms: T0 };
  const now = () => clock.ms;
  let env: TempEnv;
  let app: FastifyInstance;
  let merchantId: string;
  let lateId: string;

  const get = async (query = '') => {
    const res = await app.inject({
      method: 'GET',
      url: `/admin/v1/stats${query}`,
      headers: { authorization: `Bearer ${ALICE}` },
    });
    return { status: res.statusCode, body: parseExactJson(res.body) as any };
  };

  beforeAll(async () => {
    env = await tempServices(dialect, { now, expirySweepMs: 0 });
    const demo = await seedDemo(env.services, env.dataDir);
    merchantId = demo.merchantId;
    await seedDemoCheckouts(env.services, merchantId);
    // One more, created on day 0 and settled 20 hours later (day 1): the median and a second day.
    const late = await env.services.checkouts.create(merchantId, {
      amount: '12.345678',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'ETH' }],
      expiresIn: 86_400,
    });
    lateId = late.id;
    clock.ms += 20 * 3600_000;
    const o = late.paymentOptions[0]!;
    await env.services.checkouts.reportTransfer(
      {
        chain: o.chain,
        txHash: 'late',
        index: 0,
        toAddress: o.address,
        asset: 'USDT',
        amount: String(o.amountDue),
        confirmations: 1,
      },
      { operator: 'test' },
    );
    clock.ms += 60_000; // the overview is read a minute later: the range [from, now) holds the settlement
    // Webhook attempts and a queued delivery, as the worker records them.
    const at = (ms: number) => new Date(ms).toISOString();
    const db = env.services.store.db;
    for (const [i, ok] of [1, 1, 0].entries()) {
      await db
        .insertInto('webhook_attempts')
        .values({
          id: `wat_${i}`,
          delivery_id: `wdl_${i}`,
          endpoint_id: 'we_x',
          event_id: `evt_${i}`,
          attempted_at: at(T0 + i * 1000),
          status_code: ok ? 200 : 500,
          error: null,
          latency_ms: 5,
          response_body: null,
          succeeded: ok,
        })
        .execute();
    }
    await db
      .insertInto('webhook_deliveries')
      .values({
        id: 'wdl_q',
        endpoint_id: 'we_x',
        merchant_id: merchantId,
        event_id: 'evt_q',
        sequence: 1,
        status: 'pending',
        attempts: 1,
        next_attempt_at: at(T0 + 60_000),
        last_error: null,
        created_at: at(T0 + 5000),
        updated_at: at(T0 + 5000),
      })
      .execute();
    const config = loadConfig({}, { dataDir: env.dataDir, logLevel: 'silent', adminTokens: OPERATOR_TOKENS });
    app = await buildApp({
      config,
      services: env.services.merchant,
      admin: env.services.admin,
      features: env.services,
      now,
      logger: false,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it('every figure matches the rows it summarises, exactly', async () => {
    const { status, body } = await get();
    expect(status).toBe(200);
    const s = body.result;
    expect(s.to).toBe(new Date(now()).toISOString());
    expect(Date.parse(s.to) - Date.parse(s.from)).toBe(30 * DAY);

    // Settled volume: the credited postings of settled checkouts, by the day they settled.
    const db = env.services.store.db;
    const credited = await db
      .selectFrom('checkouts as c')
      .innerJoin('ledger_postings as p', 'p.id', 'c.credited_posting_id')
      .select(['c.id', 'p.amount'])
      .where('c.status', '=', 'settled')
      .execute();
    expect(credited).toHaveLength(3);
    const day0 = credited.filter((c) => c.id !== lateId).reduce((a, c) => a.plus(String(c.amount)), new Decimal(0));
    const day1 = new Decimal(String(credited.find((c) => c.id === lateId)!.amount));
    expect(s.settledVolume).toEqual([
      { day: '2027-03-10', asset: 'USDT', amount: decimalText(day0), count: '2' },
      { day: '2027-03-11', asset: 'USDT', amount: decimalText(day1), count: '1' },
    ]);
    expect(s.settledTotals).toEqual([{ asset: 'USDT', amount: decimalText(day0.plus(day1)), count: '3' }]);
    expect(s.timeToSettle).toEqual({ settled: '3', medianSeconds: '0' });

    // The funnel: 8 checkouts; paid = processing + 3 settled; conversion 3/8.
    expect(s.funnel).toEqual({
      created: '8',
      paid: '4',
      settled: '3',
      expired: '0',
      needsReview: '1',
      conversionRate: '0.375',
      paidRate: '0.5',
    });
    expect(s.byStatus).toEqual({
      open: '1',
      underpaid: '1',
      processing: '1',
      settled: '3',
      expired: '0',
      canceled: '1',
      needs_review: '1',
      invalid: '0',
    });

    // Balances: the wallets summed per asset and chain, frozen parts too.
    const wallets = await db
      .selectFrom('wallets as w')
      .innerJoin('assets as a', 'a.id', 'w.asset_id')
      .innerJoin('chains as c', 'c.id', 'w.chain_id')
      .select(['a.symbol as asset', 'c.symbol as chain', 'w.amount', 'w.freeze_amount'])
      .execute();
    for (const b of s.balances) {
      const mine = wallets.filter((w) => w.asset === b.asset && w.chain === b.chain);
      expect(b.amount).toBe(decimalText(mine.reduce((a, w) => a.plus(String(w.amount)), new Decimal(0))));
      expect(b.frozen).toBe(decimalText(mine.reduce((a, w) => a.plus(String(w.freeze_amount)), new Decimal(0))));
    }
    expect(s.balances.find((b: any) => b.asset === 'ETH').amount).toBe('3.141592653589793238');

    expect(s.webhooks).toEqual({
      attempts: '3',
      succeeded: '2',
      successRate: '0.6667',
      queued: '1',
      oldestQueuedAt: new Date(T0 + 5000).toISOString(),
      endpointsFailingOrDisabled: '0',
    });
  });

  it('the median counts the time from creation to settlement', async () => {
    const { body } = await get(`?from=2027-03-11T00:00:00Z&to=2027-03-12T00:00:00Z`);
    expect(body.result.timeToSettle).toEqual({ settled: '1', medianSeconds: String(20 * 3600) });
    expect(body.result.settledVolume.map((v: any) => v.day)).toEqual(['2027-03-11']);
    // Nothing was created that day.
    expect(body.result.funnel.created).toBe('0');
    expect(body.result.funnel.conversionRate).toBeNull();
  });

  it('filters by merchant', async () => {
    const other = await env.services.admin.createMerchant('Quiet Shop', { operator: 'test' });
    const { body } = await get(`?merchantId=${other.id}`);
    expect(body.result.funnel.created).toBe('0');
    expect(body.result.settledVolume).toEqual([]);
    expect(body.result.balances).toEqual([]);
    expect(body.result.merchantId).toBe(other.id);
  });

  it('refuses a bad range with 400 INVALID_QUERY', async () => {
    for (const q of [
      '?from=yesterday',
      '?from=2027-03-10T00:00:00Z&to=2027-03-10T00:00:00Z',
      '?from=2025-01-01T00:00:00Z&to=2027-01-01T00:00:00Z',
      '?to=2027-13-01T00:00:00Z',
      '?merchantId=a%20b',
    ]) {
      const { status, body } = await get(q);
      expect(status, q).toBe(400);
      expect(body.error.code, q).toBe('INVALID_QUERY');
    }
  });
});
