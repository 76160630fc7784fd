import { parseExactJson, REPORT_COLUMNS } from '@hostpay/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, TEST_DATABASE_URL } from '../helpers.js';
import { adminCaller, errorOf, OPERATOR_TOKENS, resultOf, type AdminCall } from '../http-helpers/admin-fixture.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';
import { payoutWorld, TRON_ADDRESS } from '../payouts/world.js';
import { parseCsv } from './env.js';

/**
 * GET /admin/v1/reports/reconciliation and the operator's exports, on a sandbox over both stores:
 * a clean run lists no difference; each kind of difference, built the way it happens (a transfer
 * reported by hand, one retracted, one short of its confirmations, one in review, one to no
 * address, payouts sent or confirmed by hand, sent and waiting, taken out by a reorganisation,
 * awaiting approval), is listed with its reason.
 */
const DAY = 86_400_000;
const WATCHER = { operator: 'chain-watch' };
const OPS = { operator: 'ops' };

interface Diff {
  kind: string;
  reason: string;
  checkoutId: string | null;
  payoutId: string | null;
  transferId: string | null;
  txHash: string | null;
  amount: number;
  counted: boolean;
}
interface Day {
  chain: string;
  day: string;
  seen: { count: number; amounts: Record<string, number> };
  credited: { count: number; amounts: Record<string, number> };
  payoutsCompleted: { count: number; amounts: Record<string, number> };
  differences: Diff[];
}

describe.each(DIALECTS)('reconciliation on %s', (dialect) => {
  let fx: HttpFixture;
  let call: AdminCall;
  let merchantId: string;

  beforeEach(async () => {
    const schema = `hp_recon_${Math.random().toString(16).slice(2, 10)}`;
    fx = await createFixture({
      sandbox: true,
      adminTokens: OPERATOR_TOKENS,
      ...(dialect === 'postgres' ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema } : {}),
    });
    call = adminCaller(() => fx.app);
    merchantId = fx.demo.merchantId;
  }, 60_000);
  afterEach(() => fx.close());

  const range = () => `from=${new Date(fx.now() - DAY).toISOString()}&to=${new Date(fx.now() + DAY).toISOString()}`;
  const reconcile = async () => resultOf<{ days: Day[] }>(await call('GET', `/reports/reconciliation?${range()}`)).days;
  const checkout = (amount = '10') =>
    fx.services.checkouts.create(merchantId, {
      amount,
      currency: 'EUR',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      expiresIn: 3600,
    });
  const pay = async (c: Awaited<ReturnType<typeof checkout>>, tx: string, audit = WATCHER, extra = {}) => {
    const o = c.paymentOptions[0]!;
    return fx.services.checkouts.reportTransfer(
      {
        chain: 'TRON',
        txHash: tx,
        index: 0,
        toAddress: o.address,
        asset: 'USDT',
        amount: String(o.amountDue),
        confirmations: o.confirmationsRequired,
        ...extra,
      },
      audit,
    );
  };
  const payout = async (world: { merchantId: string; walletId: string; destinationId: string }, amount = '1') => {
    const p = await fx.services.payouts.create(world.merchantId, {
      walletId: world.walletId,
      amount,
      destinationId: world.destinationId,
    });
    return p.id as string;
  };

  it('a clean run — payments seen by the watcher and credited, payouts completed by the system — lists no difference', async () => {
    const a = await checkout('10');
    await pay(a, 'clean_a');
    const b = await checkout('20');
    await fx.services.checkouts.simulatePayment(merchantId, b.id, { asset: 'USDT', chain: 'TRON' });
    const world = await payoutWorld(fx.services);
    const p = await payout(world, '3');
    await fx.services.payouts.approve(p, OPS);
    await fx.services.payouts.simulate(world.merchantId, p, 'completed');

    const days = await reconcile();
    expect(days).toHaveLength(1);
    const [day] = days;
    expect(day!.chain).toBe('TRON');
    expect(day!.day).toBe(new Date(fx.now()).toISOString().slice(0, 10));
    expect(day!.seen.count).toBe(2);
    expect(day!.credited.count).toBe(2);
    expect(day!.seen.amounts).toEqual(day!.credited.amounts);
    expect(day!.payoutsCompleted).toEqual({ count: 1, amounts: { USDT: 3 } });
    expect(day!.differences).toEqual([]);
  });

  it('lists each kind of difference with its reason, and the differences explain every gap', async () => {
    const credited = await checkout('10');
    await pay(credited, 'ok_1');
    const byHand = await checkout('11');
    await pay(byHand, 'hand_1', OPS);
    const orphan = await checkout('12');
    const retracted = await pay(orphan, 'reorg_1');
    await fx.services.checkouts.retractTransfer(retracted.transfer.id, WATCHER);
    const waiting = await checkout('13');
    await pay(waiting, 'wait_1', WATCHER, { confirmations: 0 });
    const review = await checkout('14');
    await pay(review, 'review_1', WATCHER, { asset: 'TRX', amount: '25' });
    await fx.services.checkouts.reportTransfer(
      {
        chain: 'TRON',
        txHash: 'nobody_1',
        index: 0,
        toAddress: TRON_ADDRESS,
        asset: 'USDT',
        amount: '7',
        confirmations: 5,
      },
      WATCHER,
    );

    const world = await payoutWorld(fx.services);
    const manual = await payout(world, '2');
    await fx.services.payouts.approve(manual, OPS);
    await fx.services.payouts.markSent(manual, { txHash: 'manual_tx_1' }, OPS);
    await fx.services.payouts.complete(manual, {}, OPS);
    const sent = await payout(world, '3');
    await fx.services.payouts.approve(sent, OPS);
    await fx.services.payouts.markSent(sent, { txHash: 'sent_tx_1' }, OPS);
    const reorged = await payout(world, '4');
    await fx.services.payouts.approve(reorged, OPS);
    await fx.services.payouts.move(reorged, { move: 'send', by: 'system', txHash: 'reorg_tx_1' });
    await fx.services.payouts.move(reorged, { move: 'reorg', by: 'system' });
    const pending = await payout(world, '5');

    const [day] = await reconcile();
    const reasons = day!.differences.map((d) => [d.kind, d.reason, d.checkoutId ?? d.payoutId, d.txHash]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        ['transfer', 'reported_by_hand', byHand.id, 'hand_1'],
        ['transfer', 'retracted', orphan.id, 'reorg_1'],
        ['transfer', 'awaiting_confirmations', waiting.id, 'wait_1'],
        ['transfer', 'in_review', review.id, 'review_1'],
        ['transfer', 'unmatched', null, 'nobody_1'],
        ['payout', 'reported_by_hand', manual, 'manual_tx_1'],
        ['payout', 'awaiting_confirmations', sent, 'sent_tx_1'],
        ['payout', 'retracted', reorged, 'reorg_tx_1'],
        ['payout', 'in_review', pending, null],
      ]),
    );
    expect(reasons).toHaveLength(9);
    // Nothing credited is listed but the transfer no watcher saw; the credited one is not listed.
    expect(day!.differences.some((d) => d.checkoutId === credited.id)).toBe(false);
    expect(day!.differences.find((d) => d.txHash === 'hand_1')!.counted).toBe(true);
    // seen − what was seen and not credited + what was credited without being seen = credited.
    const transfers = day!.differences.filter((d) => d.kind === 'transfer');
    const unseenCredited = transfers.filter((d) => d.reason === 'reported_by_hand' && d.counted).length;
    const seenNotCredited = transfers.filter((d) => d.reason !== 'reported_by_hand').length;
    expect(day!.seen.count - seenNotCredited + unseenCredited).toBe(day!.credited.count);
    expect(day!.credited.count).toBe(2);
    expect(day!.payoutsCompleted).toEqual({ count: 1, amounts: { USDT: 2 } });
  });

  it('refuses a bad range with 400 INVALID_QUERY', async () => {
    const t = new Date(fx.now()).toISOString();
    errorOf(await call('GET', '/reports/reconciliation'), 400, 'INVALID_QUERY');
    errorOf(await call('GET', `/reports/reconciliation?from=${t}&to=${t}`), 400, 'INVALID_QUERY');
    const far = new Date(fx.now() + 367 * DAY).toISOString();
    errorOf(await call('GET', `/reports/reconciliation?from=${t}&to=${far}`), 400, 'INVALID_QUERY');
    errorOf(await call('GET', `/reports/reconciliation?from=yesterday&to=${t}`), 400, 'INVALID_QUERY');
    errorOf(await call('GET', `/reports/ledger?${range()}&merchantId=mer_nobody`), 404, 'NOT_FOUND');
    errorOf(await call('GET', `/reports/nothing?${range()}`), 400, 'INVALID_QUERY');
  });

  it('operator exports hold every merchant’s rows, each naming its merchant in a last column', async () => {
    await pay(await checkout('10'), 'exp_1');
    const world = await payoutWorld(fx.services, { name: 'Second Shop' });
    await payout(world, '1');
    for (const kind of ['checkouts', 'payments', 'payouts', 'ledger', 'fees'] as const) {
      const res = await call('GET', `/reports/${kind}?${range()}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(new RegExp(`filename="hostpay-${kind}-all-`));
      const [header, ...rows] = parseCsv(res.body);
      expect(header).toEqual([...REPORT_COLUMNS[kind], 'merchantId']);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect([merchantId, world.merchantId]).toContain(r[r.length - 1]);
    }
    const ledger = parseCsv((await call('GET', `/reports/ledger?${range()}`)).body).slice(1);
    expect(new Set(ledger.map((r) => r[r.length - 1]))).toEqual(new Set([merchantId, world.merchantId]));
    const one = await call('GET', `/reports/ledger?${range()}&merchantId=${world.merchantId}&format=ndjson`);
    expect(one.headers['content-type']).toBe('application/x-ndjson');
    const lines = one.body
      .trim()
      .split('\n')
      .map((l) => parseExactJson(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l.merchantId).toBe(world.merchantId);
  });
});
