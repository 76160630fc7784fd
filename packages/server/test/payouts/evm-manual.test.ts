import { Decimal } from '@hostpay/protocol';
import { describe, expect, beforeAll, afterAll, it } from 'vitest';
import { anvilBinary } from '../evm/anvil.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { freshAddress } from '../hot-wallet/common.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { evmPayoutWorld, type EvmPayoutWorld } from './evm-world.js';
import { balances, ctx } from './world.js';

/**
 * The manual sender on a watched EVM chain, on a real node (anvil): the operator pays by hand and
 * reports the hash; the verifier checks it pays the payout and is mined (on the instance whose
 * watcher leads the chain), the chain watcher counts its confirmations from the blocks it scanned
 * and completes it once; a reorganisation sends it back to `sent` and it is looked for again.
 * Both stores.
 */
const suite = anvilBinary === null ? describe.skip : describe;

suite.each(DIALECTS)('the manual sender on a watched EVM chain (anvil), %s', (dialect: Dialect) => {
  let w: EvmPayoutWorld;

  beforeAll(async () => {
    w = await evmPayoutWorld(dialect, { hotWallet: false });
  }, 60_000);
  afterAll(async () => w?.close());

  const payout = (id: string) => w.env.services.payouts.getAny(id);
  const verify = () => w.env.services.hotWallet.verifier.roundAll();
  /** Watcher rounds until it has scanned up to the node's head (it counts the confirmations). */
  const watch = async () => {
    for (let i = 0; i < 20; i++) {
      const r = await w.env.services.chainWatch.watcher.round('ETH');
      expect(r.leader).toBe(true);
      if (r.leader && r.caughtUp) return;
    }
    throw new Error('the watcher did not catch up');
  };
  const reportSent = async (id: string, txHash: string) =>
    resultOf(await w.env.admin('POST', `/payouts/${id}/sent`, { body: { txHash } }));
  const eventsOfPayout = (id: string) => w.eventsOfPayout(id);

  it('a chain without a hot wallet: the approved payout stays in the manual queue (export); the hot wallet sends nothing', async () => {
    const p = await w.approvedPayout(w.ethWallet, '0.2');
    expect(await w.env.services.hotWallet.sender.round('ETH')).toEqual({ leader: false, reason: 'no_hot_wallet' });
    expect((await payout(p.id)).status).toBe('approved');
    const exported = resultOf<{ items: { id: string }[] }>(await w.env.admin('GET', '/payouts/export?chain=ETH'));
    expect(exported.items.map((i) => i.id)).toContain(p.id);
    await w.env.services.payouts.cancelAny(p.id, ctx);
  });

  it('the operator pays by hand and reports the hash: verified on chain, counted by the watcher only, completed; complete by hand is 409', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.2');
    const hash = await w.chain.payEth(p.destination, '0.2');
    await reportSent(p.id, hash);
    const byHand = await w.env.admin('POST', `/payouts/${p.id}/complete`, { body: {} });
    expect(byHand.statusCode).toBe(409);
    // Not verified yet: the watcher has nothing of it to count.
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 0 });
    expect(await verify()).toMatchObject({ checked: 1, mined: 1 });
    await w.chain.mine(2);
    // Three blocks deep on the node, but the verifier counts nothing itself and looks no more.
    expect(await verify()).toMatchObject({ checked: 0 });
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 0 });
    await watch();
    const done = await payout(p.id);
    expect(done).toMatchObject({ status: 'completed', confirmations: 3, txHash: hash });
    expect(done.timeline.at(-1)).toMatchObject({ status: 'completed', by: 'system' });
    expect(await balances(w.env.services, w.ethWallet)).toEqual({
      amount: new Decimal(before.amount).minus('0.201').toFixed(),
      frozen: before.frozen,
    });
    // Nothing more to check or count, nothing moved twice.
    expect(await verify()).toMatchObject({ checked: 0 });
    await w.chain.mine(1);
    await watch();
    expect((await eventsOfPayout(p.id)).filter((t) => t === 'payout.completed')).toHaveLength(1);
  });

  it('the watcher counts from the blocks it scanned: confirmations rise one block at a time', async () => {
    const p = await w.approvedPayout(w.usdtWallet, '5');
    await reportSent(p.id, await w.chain.payToken(w.token, p.destination, '5'));
    await watch();
    await verify();
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 1 });
    await w.chain.mine(1);
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 2 });
    await w.chain.mine(1);
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'completed', confirmations: 3 });
  });

  it('a reorganisation drops the counted transaction: back to sent, looked for again, completed once when mined again', async () => {
    const before = await balances(w.env.services, w.usdtWallet);
    const p = await w.approvedPayout(w.usdtWallet, '3');
    const reorgs = (sender: string) => w.metric('hostpay_hot_wallet_reorgs_total', { chain: 'ETH', sender });
    const manualBefore = await reorgs('manual');
    const raw = await w.chain.signTokenTransfer(w.token, p.destination, '3');
    const snapshot = await w.chain.snapshot();
    const hash = await w.chain.sendRaw(raw);
    await reportSent(p.id, hash);
    await watch();
    expect(await verify()).toMatchObject({ mined: 1 });
    await w.chain.mine(1);
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 2 });

    await w.chain.revert(snapshot);
    await w.chain.mine(2);
    expect(await w.chain.pub.getTransactionReceipt({ hash }).catch(() => null)).toBeNull();
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 0, reason: 'reorganisation' });
    // The watcher saw it: counted once, under the manual sender.
    expect(await reorgs('manual')).toBe(manualBefore + 1);
    expect(await reorgs('evm-hot-wallet')).toBe(0);
    // Not on the chain now: looked for, not failed, nothing counted.
    expect(await verify()).toMatchObject({ checked: 1, mined: 0, failed: 0 });
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 0 });

    // The same signed bytes again: the same hash, in another block.
    expect(await w.chain.sendRaw(raw)).toBe(hash);
    expect(await verify()).toMatchObject({ checked: 1, mined: 1 });
    await w.chain.mine(2);
    await watch();
    const done = await w.expectCompletedOnceAfterReorg(p.id);
    expect(done).toMatchObject({ status: 'completed', confirmations: 3, txHash: hash });
    expect(await reorgs('manual')).toBe(manualBefore + 1);
    expect(await balances(w.env.services, w.usdtWallet)).toEqual({
      amount: new Decimal(before.amount).minus(String(done.total)).toFixed(),
      frozen: before.frozen,
    });
  });

  it('a payout the operator fails while the watcher counts it: left failed, no longer followed, the watcher goes on', async () => {
    const p = await w.approvedPayout(w.ethWallet, '0.07');
    await reportSent(p.id, await w.chain.payEth(p.destination, '0.07'));
    await watch();
    expect(await verify()).toMatchObject({ mined: 1 });
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 1 });
    resultOf(await w.env.admin('POST', `/payouts/${p.id}/fail`, { body: { reason: 'reported by mistake' } }));
    await w.chain.mine(2);
    await watch();
    expect(await payout(p.id)).toMatchObject({ status: 'failed', reason: 'reported by mistake' });
    const followed = await w.env.services.store.db
      .selectFrom('manual_payout_txs')
      .select('payout_id')
      .where('payout_id', '=', p.id)
      .execute();
    expect(followed).toEqual([]);
    expect((await eventsOfPayout(p.id)).filter((t) => t === 'payout.completed')).toHaveLength(0);
  });

  it('a reported transaction to the wrong address: failed with the reason, the wallet unfrozen', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.3');
    const hash = await w.chain.payEth(freshAddress(), '0.3');
    await reportSent(p.id, hash);
    await watch();
    expect(await verify()).toMatchObject({ failed: 1 });
    const failed = await payout(p.id);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(new RegExp(`^transaction ${hash} pays 0x[0-9a-f]{40}, not ${p.destination}$`));
    expect(await balances(w.env.services, w.ethWallet)).toEqual(before);
  });

  it('a wrong amount fails; a hash the node never shows stays sent, and fails 30 minutes after it was reported', async () => {
    const p = await w.approvedPayout(w.ethWallet, '0.4');
    await reportSent(p.id, await w.chain.payEth(p.destination, '0.39'));
    await watch();
    await verify();
    expect(await payout(p.id)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/base units, not /) });

    const q = await w.approvedPayout(w.ethWallet, '0.4');
    await reportSent(q.id, `0x${'ab'.repeat(32)}`);
    expect(await verify()).toMatchObject({ checked: 1, failed: 0 });
    expect((await payout(q.id)).status).toBe('sent');
    w.env.clock.offsetMs += 31 * 60_000;
    // The watcher's lease ran out meanwhile: no instance leads the chain, so none checks it.
    expect(await verify()).toMatchObject({ checked: 0 });
    await watch();
    expect(await verify()).toMatchObject({ checked: 1, failed: 1 });
    expect(await payout(q.id)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/not mined.*31 minutes/),
    });
  });
});
