import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAYOUT_ACTORS, type PayoutActor } from '@hostpay/protocol';
import { HostpayError } from '../../src/errors.js';
import {
  PAYOUT_STATUSES,
  PAYOUT_TRANSITIONS,
  payoutTransition,
  type PayoutMove,
  type PayoutStatus,
} from '../../src/features/payouts/states.js';
import { payoutView } from '../../src/features/payouts/queries.js';
import type { Services } from '../../src/services.js';
import { DIALECTS, tempServices, type Dialect } from '../helpers.js';
import { balances, ctx, eventsOf, payoutWorld, plain, type PayoutWorld } from './world.js';

// The contract's table (spec/payouts.md "States"), written out apart from the implementation.
const CONTRACT: [PayoutStatus | null, PayoutMove, PayoutStatus, PayoutActor[]][] = [
  [null, 'request_approved', 'approved', ['merchant', 'system']],
  [null, 'request', 'pending_approval', ['merchant', 'system']],
  ['pending_approval', 'approve', 'approved', ['operator']],
  ['pending_approval', 'reject', 'rejected', ['operator']],
  ['pending_approval', 'cancel', 'canceled', ['merchant', 'operator']],
  ['approved', 'cancel', 'canceled', ['merchant', 'operator']],
  ['approved', 'send', 'sent', ['operator', 'system']],
  ['sent', 'bump', 'sent', ['system']],
  ['sent', 'complete', 'completed', ['operator', 'system']],
  ['sent', 'fail', 'failed', ['operator', 'system']],
  ['approved', 'fail', 'failed', ['system']],
  ['sent', 'reorg', 'sent', ['system']],
];
const MOVES: PayoutMove[] = [
  'request_approved',
  'request',
  'approve',
  'reject',
  'cancel',
  'send',
  'bump',
  'complete',
  'fail',
  'reorg',
];

describe('the payout state table', () => {
  it('allows exactly the contract rows, each for exactly its actors', () => {
    for (const from of [null, ...PAYOUT_STATUSES])
      for (const move of MOVES)
        for (const by of PAYOUT_ACTORS) {
          const row = CONTRACT.find(([f, m, , who]) => f === from && m === move && who.includes(by));
          expect(payoutTransition(from, move, by)?.to, `${from} ${move} by ${by}`).toBe(row?.[2]);
        }
    expect(PAYOUT_TRANSITIONS.flatMap((r) => r.from.map((f) => `${f}:${r.move}`)).length).toBe(CONTRACT.length);
  });

  it('money: requests freeze, rejected/canceled/failed unfreeze, completed debits', () => {
    const money = Object.fromEntries(PAYOUT_TRANSITIONS.map((r) => [`${r.move}`, r.money]));
    expect(money).toEqual({
      request_approved: 'freeze',
      request: 'freeze',
      approve: null,
      reject: 'unfreeze',
      cancel: 'unfreeze',
      send: null,
      bump: null,
      complete: 'debit',
      fail: 'unfreeze',
      reorg: null,
    });
  });
});

describe.each(DIALECTS)('payout moves on %s', (dialect: Dialect) => {
  let env: Awaited<ReturnType<typeof tempServices>>;
  let services: Services;
  let w: PayoutWorld;
  const audit = { operator: 'op', requestId: 'req-1' };

  beforeEach(async () => {
    env = await tempServices(dialect);
    services = env.services;
    w = await payoutWorld(services);
  });
  afterEach(() => env.cleanup());

  const request = (amount = '10') =>
    services.payouts.create(w.merchantId, { walletId: w.walletId, amount, destinationId: w.destinationId });
  const codeOf = async (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: unknown) => (e instanceof HostpayError ? e.code : String(e)),
    );
  const timelineOf = async (id: string) =>
    (await services.payouts.getAny(id)).timeline.map((t) => `${t.status}:${t.by}`);

  /** A payout brought to `status` through the table. */
  async function payoutIn(status: PayoutStatus): Promise<string> {
    const p = await request();
    const id = p.id;
    if (status === 'pending_approval') return id;
    if (status === 'rejected') return (await services.payouts.reject(id, 'no', audit)).id;
    if (status === 'canceled') return (await services.payouts.cancel(w.merchantId, id)).id;
    await services.payouts.approve(id, audit);
    if (status === 'approved') return id;
    await services.payouts.markSent(id, { txHash: `tx_${id}` }, audit);
    if (status === 'sent') return id;
    if (status === 'completed') await services.payouts.complete(id, {}, audit);
    else await services.payouts.fail(id, 'dropped', audit);
    return id;
  }

  it('request → pending_approval (auto-approve limit 0): total frozen, requested + balance_changed events', async () => {
    const p = await request('10');
    expect(plain(p)).toMatchObject({
      status: 'pending_approval',
      amount: 10,
      networkFee: 0,
      total: 10,
      refundOf: null,
    });
    expect(p.timeline).toEqual([{ status: 'pending_approval', reason: null, at: p.createdAt, by: 'merchant' }]);
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '10' });
    const events = (await eventsOf(services, w.merchantId)).slice(-2);
    expect(events.map((e) => e.type)).toEqual(['wallet.balance_changed', 'payout.requested']);
    expect(events[0]!.object).toMatchObject({ kind: 'freeze', amount: 10, freezeAmount: 10, payoutId: p.id });
  });

  it('request within the auto-approve limit → approved, with requested and approved events', async () => {
    await services.admin.updateMerchant(w.merchantId, { payoutAutoApproveLimit: '10' }, ctx);
    const p = await request('10');
    expect(p.status).toBe('approved');
    const types = (await eventsOf(services, w.merchantId)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['payout.requested', 'payout.approved']);
    expect((await request('10.01')).status).toBe('pending_approval');
  });

  it('pending_approval → approved by an operator (audited); a second approve is 409', async () => {
    const id = await payoutIn('pending_approval');
    expect((await services.payouts.approve(id, audit)).status).toBe('approved');
    expect(await codeOf(services.payouts.approve(id, audit))).toBe('PAYOUT_STATE_CONFLICT');
    expect(await timelineOf(id)).toEqual(['pending_approval:merchant', 'approved:operator']);
    const audits = await services.store.db.selectFrom('audit_log').selectAll().where('object_id', '=', id).execute();
    expect(audits.map((a) => a.action)).toEqual(['payout.approve']);
  });

  it('pending_approval → rejected unfreezes; an approved payout cannot be rejected', async () => {
    const id = await payoutIn('pending_approval');
    const p = await services.payouts.reject(id, 'unknown destination', audit);
    expect(p).toMatchObject({ status: 'rejected', reason: 'unknown destination' });
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '0' });
    expect(await codeOf(services.payouts.reject(await payoutIn('approved'), 'x', audit))).toBe('PAYOUT_STATE_CONFLICT');
  });

  it('pending_approval and approved → canceled by the merchant or an operator, unfrozen; sent cannot be canceled', async () => {
    await services.payouts.cancel(w.merchantId, await payoutIn('pending_approval'));
    const op = await services.payouts.cancelAny(await payoutIn('approved'), audit);
    expect(op.timeline.at(-1)).toMatchObject({ status: 'canceled', by: 'operator' });
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '0' });
    const sent = await payoutIn('sent');
    expect(await codeOf(services.payouts.cancel(w.merchantId, sent))).toBe('PAYOUT_STATE_CONFLICT');
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '10' });
  });

  it('approved → sent → completed debits the total and unfreezes it; pending cannot be sent', async () => {
    expect(await codeOf(services.payouts.markSent(await payoutIn('pending_approval'), { txHash: 'h' }, audit))).toBe(
      'PAYOUT_STATE_CONFLICT',
    );
    const id = await payoutIn('approved');
    const sent = await services.payouts.markSent(id, { txHash: '0xabc' }, audit);
    expect(sent).toMatchObject({ status: 'sent', txHash: '0xabc', confirmations: 0 });
    const done = await services.payouts.complete(id, {}, audit);
    expect(done.status).toBe('completed');
    expect(await balances(services, w.walletId)).toEqual({ amount: '90', frozen: '10' });
    expect(await timelineOf(id)).toEqual([
      'pending_approval:merchant',
      'approved:operator',
      'sent:operator',
      'completed:operator',
    ]);
    const kinds = (await eventsOf(services, w.merchantId))
      .filter((e) => e.type === 'wallet.balance_changed' && e.object.payoutId === id)
      .map((e) => e.object.kind);
    expect(kinds).toEqual(['freeze', 'unfreeze', 'debit']);
  });

  it('sent → failed unfreezes; final states move no more', async () => {
    const id = await payoutIn('failed');
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '0' });
    for (const final of ['completed', 'rejected', 'canceled', 'failed'] as const) {
      const f = final === 'failed' ? id : await payoutIn(final);
      const before = await balances(services, w.walletId);
      expect(await codeOf(services.payouts.cancelAny(f, audit))).toBe('PAYOUT_STATE_CONFLICT');
      expect(await codeOf(services.payouts.complete(f, {}, audit))).toBe('PAYOUT_STATE_CONFLICT');
      expect(await codeOf(services.payouts.fail(f, 'x', audit))).toBe('PAYOUT_STATE_CONFLICT');
      expect(await balances(services, w.walletId)).toEqual(before);
    }
  });

  it('sent → sent on a reorganisation (port): confirmations restart', async () => {
    const id = await payoutIn('sent');
    await services.payoutSender.markConfirmations(id, 5);
    expect((await services.payouts.getAny(id)).confirmations).toBe(5);
    await services.payoutSender.markReorged(id);
    const p = await services.payouts.getAny(id);
    expect(p).toMatchObject({ status: 'sent', confirmations: 0, reason: 'reorganisation' });
    expect(p.timeline.at(-1)).toMatchObject({ status: 'sent', by: 'system' });
  });

  it("network fee: the operator's estimate is frozen with the amount; the actual fee at sent adjusts it; completed debits it", async () => {
    await services.admin.payouts.setNetworkFee({ chain: 'TRON', asset: 'USDT', networkFee: '1.5' }, audit);
    const p = await request('10');
    expect(plain(p)).toMatchObject({ amount: 10, networkFee: 1.5, total: 11.5 });
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '11.5' });
    await services.payouts.approve(p.id, audit);
    const sent = await services.payouts.markSent(p.id, { txHash: 'h1', networkFee: '0.7' }, audit);
    expect(plain(sent)).toMatchObject({ networkFee: 0.7, total: 10.7 });
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '10.7' });
    await services.payouts.complete(p.id, {}, audit);
    expect(await balances(services, w.walletId)).toEqual({ amount: '89.3', frozen: '0' });
  });

  it('INSUFFICIENT_FUNDS: amount − freezeAmount must cover the total; nothing is frozen or written on refusal', async () => {
    await request('60');
    expect(await codeOf(request('40.000001'))).toBe('INSUFFICIENT_FUNDS');
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '60' });
    expect((await services.payouts.listForMerchant(w.merchantId, {}, {})).items).toHaveLength(1);
    expect(plain(await request('40')).total).toBe(40);
  });

  it('PAYOUT_LIMIT: the rolling 24 h total per asset; rejected and canceled payouts do not count', async () => {
    await services.admin.updateMerchant(w.merchantId, { payoutDailyLimit: { usdt: '25' } }, ctx);
    const first = await request('20');
    expect(await codeOf(request('5.01'))).toBe('PAYOUT_LIMIT');
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '20' });
    await services.payouts.cancel(w.merchantId, first.id);
    expect((await request('25')).status).toBe('pending_approval');
  });

  it("requestPayout for refunds: a payer's address skips the cooling-off, is checked per chain, keeps refundOf", async () => {
    await services.admin.updateMerchant(w.merchantId, { payoutCoolingOffHours: 48, payoutAutoApproveLimit: '5' }, ctx);
    const input = {
      merchantId: w.merchantId,
      walletId: w.walletId,
      destination: { source: 'payer' as const, address: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8' },
      refundOf: 'chk_refunded',
      by: 'system' as const,
    };
    const small = plain(payoutView(await services.payouts.request({ ...input, amount: '5' })));
    expect(small).toMatchObject({ status: 'approved', refundOf: 'chk_refunded', destinationId: null, total: 5 });
    expect((small.timeline as { by: string }[])[0]!.by).toBe('system');
    const big = plain(payoutView(await services.payouts.request({ ...input, amount: '6' })));
    expect(big.status).toBe('pending_approval');
    expect(
      await codeOf(
        services.payouts.request({ ...input, amount: '1', destination: { source: 'payer', address: 'T1234' } }),
      ),
    ).toBe('INVALID_ADDRESS');
    expect(await balances(services, w.walletId)).toEqual({ amount: '100', frozen: '11' });
  });

  it('the sender port: approved jobs oldest first; every mark is idempotent', async () => {
    const a = await payoutIn('approved');
    const b = await payoutIn('approved');
    const port = services.payoutSender;
    const chainId = (
      await services.store.db.selectFrom('chains').select('id').where('symbol', '=', 'TRON').executeTakeFirstOrThrow()
    ).id;
    const jobs = await port.approved(chainId, 10);
    expect(jobs.map((j) => j.id)).toEqual([a, b]);
    expect(jobs[0]).toMatchObject({
      merchantId: w.merchantId,
      chain: 'TRON',
      asset: 'USDT',
      amount: '10',
      decimals: 6,
    });
    await port.holdWithReason(a, 'out_of_gas');
    await port.holdWithReason(a, 'out_of_gas');
    expect(await services.payouts.getAny(a)).toMatchObject({ status: 'approved', reason: 'out_of_gas' });
    await port.markSent(a, { txHash: '0x1' }, 'system');
    await port.markSent(a, { txHash: '0x1' }, 'system');
    // Another hash from the sender while sent: a fee bump (states.ts `bump`), told once.
    await port.markSent(a, { txHash: '0x2', replacement: 'fee bump' }, 'system');
    await port.markSent(a, { txHash: '0x2', replacement: 'fee bump' }, 'system');
    expect(await services.payouts.getAny(a)).toMatchObject({
      status: 'sent',
      txHash: '0x2',
      confirmations: 0,
      reason: 'fee bump: replaces 0x1',
    });
    // The original mined after all: the payout follows it back, the bump named as replaced.
    await port.markSent(a, { txHash: '0x1', replacement: 'mined' }, 'system');
    expect((await port.sent(chainId, 10)).map((j) => [j.id, j.txHash])).toEqual([[a, '0x1']]);
    // An operator's other hash for a sent payout is not a bump.
    expect(await codeOf(services.payouts.markSent(a, { txHash: '0x9' }, audit))).toBe('PAYOUT_STATE_CONFLICT');
    await port.markReorged(a);
    await port.markReorged(a);
    await port.markCompleted(a, {});
    await port.markCompleted(a, {});
    await port.markSent(b, { txHash: '0x3' }, 'system');
    await port.markFailed(b, 'dropped', 'system');
    await port.markFailed(b, 'dropped', 'system');
    expect(await timelineOf(a)).toEqual([
      'pending_approval:merchant',
      'approved:operator',
      'sent:system',
      'sent:system',
      'sent:system',
      'sent:system',
      'completed:system',
    ]);
    expect((await services.payouts.getAny(a)).timeline.map((t) => t.reason)).toEqual([
      null,
      null,
      null,
      'fee bump: replaces 0x1',
      'mined: replaces 0x2',
      'reorganisation',
      null,
    ]);
    const sentEvents = (await eventsOf(services, w.merchantId)).filter(
      (e) => e.type === 'payout.sent' && e.object.id === a,
    );
    expect(sentEvents.map((e) => e.object.txHash)).toEqual(['0x1', '0x2', '0x1', '0x1']);
    expect(await timelineOf(b)).toEqual([
      'pending_approval:merchant',
      'approved:operator',
      'sent:system',
      'failed:system',
    ]);
    expect(await balances(services, w.walletId)).toEqual({ amount: '90', frozen: '0' });
  });
});
