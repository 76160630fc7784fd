import { Decimal } from '@hostpay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_DATABASE_URL } from '../helpers.js';
import { ALICE, OPERATOR_TOKENS } from '../http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { payoutWorld, TRON_ADDRESS } from '../payouts/world.js';

/**
 * The business counters on /metrics (issue 45 item 7): checkouts created (one by one and in a
 * batch), settled with the amount credited per asset, payouts completed with their amount; each
 * transition counted once, however often it is reported again.
 */
const OPS = { operator: 'ops' };

describe.each(DIALECTS)('business metrics on %s', (dialect) => {
  let fx: HttpFixture;

  beforeEach(async () => {
    const schema = `hp_bizm_${Math.random().toString(16).slice(2, 10)}`;
    fx = await createFixture({
      sandbox: true,
      adminTokens: OPERATOR_TOKENS,
      ...(dialect === 'postgres' ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema } : {}),
    });
  }, 60_000);
  afterEach(() => fx.close());

  const scrape = async () => {
    const res = await fx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ALICE}` } });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  const create = (amount: string) =>
    fx.services.checkouts.create(fx.demo.merchantId, {
      amount,
      currency: 'EUR',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      expiresIn: 3600,
    });

  it('counts creates, settlements with their credited amounts and completed payouts, once each', async () => {
    const before = await scrape();
    expect(before).toContain('# TYPE hostpay_checkouts_created_total counter');
    expect(value(before, 'hostpay_checkouts_created_total')).toBe(0);

    // Created together: on PostgreSQL one batched statement writes them.
    const made = await Promise.all(['10', '20', '30'].map(create));
    const single = await create('40');
    for (const c of [made[0]!, made[1]!])
      await fx.services.checkouts.simulatePayment(fx.demo.merchantId, c.id, { asset: 'USDT', chain: 'TRON' });
    // A second payment to a settled checkout changes nothing the counters count.
    await fx.services.checkouts.simulatePayment(fx.demo.merchantId, made[0]!.id, {
      asset: 'USDT',
      chain: 'TRON',
      amount: '1',
    });
    // Paid but short of its confirmations: not settled.
    await fx.services.checkouts.simulatePayment(fx.demo.merchantId, single.id, {
      asset: 'USDT',
      chain: 'TRON',
      confirmations: 0,
    });

    const world = await payoutWorld(fx.services);
    const p1 = (
      await fx.services.payouts.create(world.merchantId, {
        walletId: world.walletId,
        amount: '3',
        destinationId: world.destinationId,
      })
    ).id as string;
    await fx.services.payouts.approve(p1, OPS);
    await fx.services.payouts.simulate(world.merchantId, p1, 'completed');
    const p2 = (
      await fx.services.payouts.create(world.merchantId, {
        walletId: world.walletId,
        amount: '4.5',
        destinationId: world.destinationId,
      })
    ).id as string;
    await fx.services.payouts.approve(p2, OPS);
    await fx.services.payouts.markSent(p2, { txHash: 'tx_metrics_2' }, OPS);
    await fx.services.payouts.complete(p2, {}, OPS);
    // The senders' port reporting the completion again (idempotent) counts nothing.
    await fx.services.payoutSender.markCompleted(p2, {});

    // A refund of a settled checkout is a payout with refundOf: counted under kind="refund".
    await fx.services.admin.updateMerchant(fx.demo.merchantId, { payoutCoolingOffHours: 0 }, OPS);
    await fx.services.payouts.addDestination(fx.demo.merchantId, { chain: 'TRON', address: TRON_ADDRESS });
    const refund = await fx.services.refunds.refund(fx.demo.merchantId, made[1]!.id, new Decimal('1.25'), TRON_ADDRESS);
    const refundId = (JSON.parse(refund.kind === 'payout' ? refund.json : '{}') as { id: string }).id;
    await fx.services.payouts.approve(refundId, OPS);
    await fx.services.payouts.simulate(fx.demo.merchantId, refundId, 'completed');

    const text = await scrape();
    expect(value(text, 'hostpay_checkouts_created_total')).toBe(4);
    expect(value(text, 'hostpay_checkouts_settled_total{asset="USDT",chain="TRON"}')).toBe(2);
    const credited = await fx.services.store.db
      .selectFrom('checkouts as c')
      .innerJoin('ledger_postings as p', 'p.id', 'c.credited_posting_id')
      .select('p.amount')
      .where('c.id', 'in', [made[0]!.id, made[1]!.id])
      .execute();
    expect(credited).toHaveLength(2);
    const sum = credited.reduce((s, r) => s + Number(r.amount), 0);
    expect(value(text, 'hostpay_checkouts_settled_amount_total{asset="USDT",chain="TRON"}')).toBeCloseTo(sum, 9);
    expect(value(text, 'hostpay_payouts_completed_total{asset="USDT",chain="TRON",kind="payout"}')).toBe(2);
    expect(value(text, 'hostpay_payouts_completed_amount_total{asset="USDT",chain="TRON",kind="payout"}')).toBe(7.5);
    expect(value(text, 'hostpay_payouts_completed_total{asset="USDT",chain="TRON",kind="refund"}')).toBe(1);
    expect(value(text, 'hostpay_payouts_completed_amount_total{asset="USDT",chain="TRON",kind="refund"}')).toBe(1.25);
  });
});
