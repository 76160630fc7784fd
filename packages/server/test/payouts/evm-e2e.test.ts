import { Decimal } from '@hostpay/protocol';
import { formatEther, parseEther, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary } from '../evm/anvil.js';
import { TOKEN_ABI } from '../evm/token.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { errorOf } from '../http-helpers/admin-fixture.js';
import { metricValue } from '../hot-wallet/common.js';
import { evmPayoutWorld, type EvmPayoutWorld } from './evm-world.js';
import { balances, ctx } from './world.js';

/**
 * Payouts end to end on a real node (anvil), through the real payouts feature and its sender
 * port (no recorder): the merchant requests, the operator activates the destination and
 * approves, the evm-hot-wallet sender sends, the node mines, the payout completes once with the
 * wallet debited exactly its total; a reorganisation sends it back to `sent` and it completes
 * once (seen by the sender's tracker or first by the chain watcher); a wallet without gas holds it
 * `approved` with a reason. Both stores. The manual sender: evm-manual.test.ts.
 */
const suite = anvilBinary === null ? describe.skip : describe;

suite.each(DIALECTS)('payouts sent by the hot wallet on anvil, %s', (dialect: Dialect) => {
  let w: EvmPayoutWorld;

  beforeAll(async () => {
    w = await evmPayoutWorld(dialect);
  }, 60_000);
  afterAll(async () => w?.close());

  const round = () => w.round();
  const payout = (id: string) => w.env.services.payouts.getAny(id);
  /** Reorganisations counted for the hot wallet's payouts on /metrics, by the tracker or the watcher. */
  const reorgs = () => w.metric('hostpay_hot_wallet_reorgs_total', { chain: 'ETH', sender: 'evm-hot-wallet' });
  const eventsOfPayout = (id: string) => w.eventsOfPayout(id);

  it('without gas the payout stays approved with the reason and the metric raised; funded, it is sent', async () => {
    const p = await w.approvedPayout(w.ethWallet, '0.25');
    expect(await round()).toMatchObject({ sent: 0 });
    const held = await payout(p.id);
    expect(held.status).toBe('approved');
    expect(held.reason).toMatch(/^hot wallet 0x[0-9a-f]{40} balance too low: 0 ETH/);
    expect(await metricValue(w.env.services, 'hostpay_hot_wallet_insufficient_funds')).toBe(1);

    await w.chain.payEth(w.hot!, '10');
    await w.chain.payToken(w.token, w.hot!, '1000');
    expect(await round()).toMatchObject({ sent: 1 });
    const sent = await payout(p.id);
    expect(sent).toMatchObject({ status: 'sent', reason: null });
    expect(await metricValue(w.env.services, 'hostpay_hot_wallet_insufficient_funds')).toBe(0);
    await w.chain.mine(2);
    await round();
    expect((await payout(p.id)).status).toBe('completed');
  });

  it('an ETH payout: sent, counted, completed once; the wallet debited amount + the actual fee, the freeze back', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.123456789012345678');
    expect(await balances(w.env.services, w.ethWallet)).toEqual({
      amount: before.amount,
      frozen: new Decimal(before.frozen).plus('0.124456789012345678').toFixed(),
    });
    const eventsBefore = (await eventsOfPayout(p.id)).length;
    expect(await round()).toMatchObject({ sent: 1 });
    const sent = await payout(p.id);
    expect(sent.status).toBe('sent');
    // anvil mined it at once: one confirmation at the next round, then the chain's 3.
    await round();
    expect((await payout(p.id)).confirmations).toBe(1);
    await w.chain.mine(2);
    await round();
    await round();
    const done = await payout(p.id);
    const receipt = await w.chain.pub.getTransactionReceipt({ hash: sent.txHash as Hash });
    const fee = formatEther(receipt.gasUsed * receipt.effectiveGasPrice);
    expect(String(done.networkFee)).toBe(new Decimal(fee).toFixed());
    const total = new Decimal('0.123456789012345678').plus(fee);
    expect(done).toMatchObject({ status: 'completed', confirmations: 3 });
    expect(String(done.total)).toBe(total.toFixed());
    expect(await balances(w.env.services, w.ethWallet)).toEqual({
      amount: new Decimal(before.amount).minus(total).toFixed(),
      frozen: before.frozen,
    });
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(
      parseEther('0.123456789012345678'),
    );
    expect((await eventsOfPayout(p.id)).slice(eventsBefore)).toEqual([
      'payout.sent',
      'wallet.balance_changed',
      'wallet.balance_changed',
      'payout.completed',
    ]);
    expect(done.timeline.map((t) => t.status)).toEqual(['pending_approval', 'approved', 'sent', 'completed']);
  });

  it('an ERC-20 payout: the exact token amount arrives; the wallet is debited amount + the fee estimate', async () => {
    const before = await balances(w.env.services, w.usdtWallet);
    const p = await w.approvedPayout(w.usdtWallet, '12.345678');
    await round();
    await w.chain.mine(2);
    await round();
    const done = await payout(p.id);
    expect(done).toMatchObject({ status: 'completed', confirmations: 3 });
    expect(String(done.networkFee)).toBe('1.5');
    expect(String(done.total)).toBe('13.845678');
    expect(await balances(w.env.services, w.usdtWallet)).toEqual({
      amount: new Decimal(before.amount).minus('13.845678').toFixed(),
      frozen: before.frozen,
    });
    const got = await w.chain.pub.readContract({
      address: w.token,
      abi: TOKEN_ABI,
      functionName: 'balanceOf',
      args: [p.destination as Address],
    });
    expect(got).toBe(12_345_678n);
    expect((await eventsOfPayout(p.id)).filter((t) => t === 'payout.completed')).toHaveLength(1);
  });

  it('a reorganisation takes the counted transaction out: back to sent (timeline shows it), then completed once, debited once', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.5');
    const reorgsBefore = await reorgs();
    const snapshot = await w.chain.snapshot();
    await round();
    await w.chain.mine(1);
    await round();
    expect((await payout(p.id)).confirmations).toBe(2);
    await w.chain.revert(snapshot);
    await w.chain.mine(2);
    await round();
    const reorged = await payout(p.id);
    expect(reorged).toMatchObject({ status: 'sent', confirmations: 0, reason: 'reorganisation' });
    // The sender's round ran first: its tracker saw it and counted it; the watcher did not again.
    expect(await reorgs()).toBe(reorgsBefore + 1);
    // The stored bytes went out again and were mined: counted from the new block to completion.
    await round();
    await w.chain.mine(2);
    await round();
    const done = await w.expectCompletedOnceAfterReorg(p.id);
    expect(await balances(w.env.services, w.ethWallet)).toEqual({
      amount: new Decimal(before.amount).minus(String(done.total)).toFixed(),
      frozen: before.frozen,
    });
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.5'));
  });
  it('a reorganisation the watcher sees first (by the block hash): back to sent, then completed once', async () => {
    const p = await w.approvedPayout(w.ethWallet, '0.05');
    const reorgsBefore = await reorgs();
    const snapshot = await w.chain.snapshot();
    await round();
    await w.chain.mine(1);
    await round();
    expect((await payout(p.id)).confirmations).toBe(2);
    await w.chain.revert(snapshot);
    await w.chain.mine(2);
    // Only the watcher: its block is not the chain's at that height any more.
    expect((await w.env.services.chainWatch.watcher.round('ETH')).leader).toBe(true);
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 0, reason: 'reorganisation' });
    expect(await reorgs()).toBe(reorgsBefore + 1);
    // The sender finds its transaction in flight again and sends its bytes again.
    await round();
    await w.chain.mine(2);
    await round();
    await round();
    const done = await payout(p.id);
    expect(done.status).toBe('completed');
    expect(done.timeline.map((t) => t.status)).toEqual(['pending_approval', 'approved', 'sent', 'sent', 'completed']);
    // The tracker found it back in flight (the watcher had let it go): not counted a second time.
    expect(await reorgs()).toBe(reorgsBefore + 1);
    expect((await eventsOfPayout(p.id)).filter((t) => t === 'payout.completed')).toHaveLength(1);
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.05'));
  });

  /** The hot wallet's transactions of a payout: status, hash. */
  const txsOf = (id: string) =>
    w.env.services.store.db
      .selectFrom('hot_wallet_txs')
      .select(['status', 'tx_hash'])
      .where('payout_id', '=', id)
      .execute();
  /** The operator fails it by hand: 409, the hot wallet's transaction named, nothing moved. */
  const failRefused = async (id: string, txHash: string) => {
    const before = await payout(id);
    const res = await w.env.admin('POST', `/payouts/${id}/fail`, { body: { reason: 'operator gave up' } });
    const body = errorOf(res, 409, 'PAYOUT_STATE_CONFLICT');
    expect(body.error.details).toMatchObject({ status: 'sent', sender: 'evm-hot-wallet', txHash });
    expect(body.message).toContain('could pay it twice');
    expect(await payout(id)).toEqual(before);
  };

  it('an operator cannot fail a payout the hot wallet sent, while counted nor after a reorganisation: the chain completes it once', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.03');
    const snapshot = await w.chain.snapshot();
    await round();
    await round();
    const counted = await payout(p.id);
    expect(counted).toMatchObject({ status: 'sent', confirmations: 1 });
    await failRefused(p.id, counted.txHash!);
    expect(await txsOf(p.id)).toEqual([{ status: 'mined', tx_hash: counted.txHash }]);

    await w.chain.revert(snapshot);
    await w.chain.mine(2);
    expect((await w.env.services.chainWatch.watcher.round('ETH')).leader).toBe(true);
    expect(await payout(p.id)).toMatchObject({ status: 'sent', confirmations: 0, reason: 'reorganisation' });
    // Back in flight: its bytes can still be mined, so failing it is refused as well.
    expect(await txsOf(p.id)).toEqual([{ status: 'broadcast', tx_hash: counted.txHash }]);
    await failRefused(p.id, counted.txHash!);
    const cancel = await w.env.admin('POST', `/payouts/${p.id}/cancel`, { body: {} });
    errorOf(cancel, 409, 'PAYOUT_STATE_CONFLICT');

    await round();
    await w.chain.mine(2);
    await round();
    await round();
    const done = await payout(p.id);
    expect(done).toMatchObject({ status: 'completed', txHash: counted.txHash });
    expect(await txsOf(p.id)).toEqual([{ status: 'confirmed', tx_hash: counted.txHash }]);
    const events = await eventsOfPayout(p.id);
    expect(events.filter((t) => t === 'payout.failed')).toHaveLength(0);
    expect(events.filter((t) => t === 'payout.completed')).toHaveLength(1);
    expect(await balances(w.env.services, w.ethWallet)).toEqual({
      amount: new Decimal(before.amount).minus(String(done.total)).toFixed(),
      frozen: before.frozen,
    });
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.03'));
  });

  it('signed but not broadcast yet (a crash): the merchant cannot cancel it; the next round sends those bytes', async () => {
    const p = await w.approvedPayout(w.ethWallet, '0.04');
    const hw = w.env.services.hotWallet;
    const lease = () =>
      w.env.services.store.db.updateTable('hot_wallets').set({ lease_owner: null, lease_expires_at: null }).execute();
    await lease();
    const crashing = hw.spawnSender({
      port: w.env.services.payoutSender,
      afterSign: () => {
        throw new Error('killed after signing');
      },
    });
    await expect(crashing.round('ETH')).rejects.toThrow();
    await crashing.stop();
    const [signed] = await txsOf(p.id);
    expect(signed).toMatchObject({ status: 'signed' });
    expect((await payout(p.id)).status).toBe('approved');
    const byMerchant = w.env.services.payouts.cancel(w.merchantId, p.id);
    await expect(byMerchant).rejects.toMatchObject({
      code: 'PAYOUT_STATE_CONFLICT',
      details: { transaction: 'signed' },
    });
    await expect(w.env.services.payouts.cancelAny(p.id, ctx)).rejects.toMatchObject({ code: 'PAYOUT_STATE_CONFLICT' });

    await lease();
    await round();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', txHash: signed!.tx_hash });
    await w.chain.mine(2);
    await round();
    expect((await payout(p.id)).status).toBe('completed');
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.04'));
  });
});
