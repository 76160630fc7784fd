import { parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostpayError } from '../../src/errors.js';
import type { PayoutSenderPort } from '../../src/features/payouts/sender-port.js';
import { anvilBinary } from '../evm/anvil.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { freshAddress } from '../hot-wallet/common.js';
import { evmPayoutWorld, type EvmPayoutWorld } from './evm-world.js';
import { balances, ctx } from './world.js';

/**
 * One payout whose move cannot be recorded never holds up the others' (issue: a refused move of
 * one payout failed every sender round at its nonce, and 76 later mined transactions were never
 * recorded). On a real node (anvil) through the real payouts feature, both stores: the sender's
 * side (a payout the port refuses to mark sent) and the chain watcher's (a payout whose wallet
 * cannot cover the actual fee at completion). Each is that payout's error — named in the hot
 * wallet's last error or the log, counted in hostpay_hot_wallet_payout_errors_total, tried again
 * each round — while the other payouts are sent, counted and completed.
 */
const suite = anvilBinary === null ? describe.skip : describe;

suite.each(DIALECTS)('one payout stuck never blocks the others, on anvil, %s', (dialect: Dialect) => {
  let w: EvmPayoutWorld;

  beforeAll(async () => {
    w = await evmPayoutWorld(dialect);
    await w.chain.payEth(w.hot!, '20');
  }, 60_000);
  afterAll(async () => w?.close());

  const payout = (id: string) => w.env.services.payouts.getAny(id);
  const payoutErrors = () => w.metric('hostpay_hot_wallet_payout_errors_total', { chain: 'ETH' });
  const lastError = async () =>
    (resultOf(await w.env.admin('GET', '/chains/ETH/hot-wallet')) as { lastError: string | null }).lastError;
  const freeLease = () =>
    w.env.services.store.db.updateTable('hot_wallets').set({ lease_owner: null, lease_expires_at: null }).execute();

  it("the sender: a payout whose 'sent' cannot be recorded is its own error; the payouts after it are sent, counted and completed", async () => {
    const stuck = await w.approvedPayout(w.ethWallet, '0.01');
    const next = [await w.approvedPayout(w.ethWallet, '0.02'), await w.approvedPayout(w.ethWallet, '0.03')];
    const real = w.env.services.payoutSender;
    // The real port, except that this one payout's move is refused (as every bump's was).
    const refusing: PayoutSenderPort = {
      ...real,
      markSent: (id, p, by) =>
        id === stuck.id
          ? Promise.reject(new HostpayError('PAYOUT_STATE_CONFLICT', `payout ${id}: refused by the test`))
          : real.markSent(id, p, by),
    };
    await freeLease();
    const sender = w.env.services.hotWallet.spawnSender({ port: refusing });
    const errorsBefore = await payoutErrors();
    const round = async () => {
      const r = await sender.round('ETH');
      expect(r).toMatchObject({ leader: true, failed: 1 });
      expect((await w.env.services.chainWatch.watcher.round('ETH')).leader).toBe(true);
    };
    await round();
    for (const p of next) expect((await payout(p.id)).status).toBe('sent');
    expect(await lastError()).toMatch(new RegExp(`^payout ${stuck.id} \\(nonce \\d+\\): payout ${stuck.id}: refused`));
    await w.chain.mine(2);
    await round();
    await round();
    for (const p of next) {
      expect((await payout(p.id)).status).toBe('completed');
      expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBeGreaterThan(0n);
    }
    // Tried again every round: counted each time.
    expect(await payoutErrors()).toBe(errorsBefore + 3);
    expect((await payout(stuck.id)).status).toBe('approved');
    await sender.stop();

    // Recorded once the port takes it: sent with the mined hash, completed, the error cleared.
    await freeLease();
    const healthy = w.env.services.hotWallet.sender;
    expect(await healthy.round('ETH')).toMatchObject({ leader: true, failed: 0 });
    expect(await w.env.services.chainWatch.watcher.round('ETH')).toMatchObject({ leader: true });
    expect(await lastError()).toBeNull();
    const done = await payout(stuck.id);
    expect(done.status).toBe('completed');
    expect(await w.chain.pub.getBalance({ address: stuck.destination as Address })).toBe(parseEther('0.01'));
  });

  it('the watcher: a payout whose wallet cannot cover the actual fee does not complete, the others do; funded, it completes', async () => {
    // Another merchant holds exactly what its payout needs at a fee estimate of 0.
    resultOf(await w.env.admin('PUT', '/payout-fees', { body: { chain: 'ETH', asset: 'ETH', networkFee: '0' } }));
    const { admin } = w.env.services;
    const poor = (await admin.createMerchant('Exact Shop', ctx)).id;
    const poorWallet = (await admin.createWallet({ merchantId: poor, asset: 'ETH', chain: 'ETH' }, ctx)).id;
    await admin.post({ walletId: poorWallet, kind: 'credit', amount: '0.5' }, ctx);
    const d = await w.env.services.payouts.addDestination(poor, { chain: 'ETH', address: freshAddress() });
    await w.env.services.payouts.activateDestination(d.id, ctx);
    const short = await w.env.services.payouts.create(poor, {
      walletId: poorWallet,
      amount: '0.5',
      destinationId: d.id,
    });
    await w.env.services.payouts.approve(short.id, ctx);
    resultOf(await w.env.admin('PUT', '/payout-fees', { body: { chain: 'ETH', asset: 'ETH', networkFee: '0.001' } }));
    const other = await w.approvedPayout(w.ethWallet, '0.04');

    const errorsBefore = await payoutErrors();
    const round = async () => {
      expect((await w.env.services.hotWallet.sender.round('ETH')).leader).toBe(true);
      expect((await w.env.services.chainWatch.watcher.round('ETH')).leader).toBe(true);
    };
    await round();
    await w.chain.mine(2);
    await round();
    await round();
    expect((await payout(other.id)).status).toBe('completed');
    expect(await payout(short.id)).toMatchObject({ status: 'sent', confirmations: 3 });
    expect(await payoutErrors()).toBeGreaterThan(errorsBefore);
    expect(await balances(w.env.services, poorWallet)).toEqual({ amount: '0.5', frozen: '0.5' });

    await admin.post({ walletId: poorWallet, kind: 'credit', amount: '0.01' }, ctx);
    await round();
    const done = await payout(short.id);
    expect(done.status).toBe('completed');
    expect((await balances(w.env.services, poorWallet)).frozen).toBe('0');
    expect(String(done.total)).not.toBe('0.5');
  });
});
