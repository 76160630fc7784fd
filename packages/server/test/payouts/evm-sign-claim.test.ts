import { Decimal } from '@hostpay/protocol';
import { parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary } from '../evm/anvil.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { evmPayoutWorld, type EvmPayoutWorld } from './evm-world.js';
import { balances, ctx, eventsOf } from './world.js';

/**
 * The race between the hot wallet's list of approved payouts and the transaction that stores a
 * signed one: a cancel committed in between (the `beforeStore` hook makes it, no timing) must
 * leave the payout canceled and its total unfrozen with nothing stored, nothing broadcast and the
 * nonce free for the next payout; a cancel after the store is refused (409) and the payout
 * completes once. On a real node, through the real payouts feature, on both stores.
 */
const suite = anvilBinary === null ? describe.skip : describe;

suite.each(DIALECTS)('the hot wallet claims a payout when it stores its signed transaction, %s', (dialect: Dialect) => {
  let w: EvmPayoutWorld;

  beforeAll(async () => {
    w = await evmPayoutWorld(dialect);
    await w.chain.payEth(w.hot!, '10');
  }, 60_000);
  afterAll(async () => w?.close());

  const payout = (id: string) => w.env.services.payouts.getAny(id);
  const txsOf = (id: string) =>
    w.env.services.store.db
      .selectFrom('hot_wallet_txs')
      .select(['status', 'tx_hash', 'nonce'])
      .where('payout_id', '=', id)
      .execute();
  /** The store's next nonce of the world's one hot wallet. */
  const storedNextNonce = async () =>
    (await w.env.services.store.db.selectFrom('hot_wallets').select('next_nonce').executeTakeFirstOrThrow()).next_nonce;
  const onChainNonce = () => w.chain.pub.getTransactionCount({ address: w.hot!, blockTag: 'pending' });
  /** The chain's lease is free again: the next sender (a spawned one, or the service's) takes it. */
  const freeLease = () =>
    w.env.services.store.db.updateTable('hot_wallets').set({ lease_owner: null, lease_expires_at: null }).execute();
  const eventsOfPayout = async (id: string) =>
    (await eventsOf(w.env.services, w.merchantId))
      .filter((e) => e.object.id === id || e.object.payoutId === id)
      .map((e) => e.type);
  /** A sender and a watcher round by the service's own sender. */
  const round = async () => {
    await freeLease();
    const r = await w.env.services.hotWallet.sender.round('ETH');
    expect((await w.env.services.chainWatch.watcher.round('ETH')).leader).toBe(true);
    return r;
  };

  const cancels = {
    merchant: (id: string) => w.env.services.payouts.cancel(w.merchantId, id),
    operator: (id: string) => w.env.services.payouts.cancelAny(id, ctx),
  };

  for (const [by, cancel] of Object.entries(cancels)) {
    it(`canceled by the ${by} after the sender read it as approved: nothing stored or broadcast, the freeze back, the nonce reused`, async () => {
      const wallet = await balances(w.env.services, w.ethWallet);
      const p = await w.approvedPayout(w.ethWallet, '0.05');
      const nonceBefore = await onChainNonce();
      const nextBefore = await storedNextNonce();
      let seen: { payoutId: string; nonce: number } | undefined;
      await freeLease();
      const racing = w.env.services.hotWallet.spawnSender({
        port: w.env.services.payoutSender,
        beforeStore: async (tx) => {
          seen = tx;
          // Signed, not stored yet: the cancel commits here, the total unfrozen.
          expect((await cancel(p.id)).status).toBe('canceled');
        },
      });
      try {
        expect(await racing.round('ETH')).toMatchObject({ leader: true, sent: 0 });
      } finally {
        await racing.stop();
      }
      expect(seen).toMatchObject({ payoutId: p.id });
      expect(await payout(p.id)).toMatchObject({ status: 'canceled' });
      expect(await txsOf(p.id)).toEqual([]);
      expect(await storedNextNonce()).toEqual(nextBefore);
      expect(await onChainNonce()).toBe(nonceBefore);
      expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(0n);
      expect(await balances(w.env.services, w.ethWallet)).toEqual(wallet);
      const events = await eventsOfPayout(p.id);
      expect(events.filter((t) => t === 'payout.canceled')).toHaveLength(1);
      expect(events).not.toContain('payout.sent');

      // The next payout takes the nonce the canceled one was signed with: no gap on chain.
      const next = await w.approvedPayout(w.ethWallet, '0.02');
      expect(await round()).toMatchObject({ leader: true, sent: 1 });
      const [tx] = await txsOf(next.id);
      expect(Number(tx!.nonce)).toBe(seen!.nonce);
      expect(await payout(next.id)).toMatchObject({ status: 'sent', txHash: tx!.tx_hash });
      await w.chain.mine(3);
      await round();
      expect((await payout(next.id)).status).toBe('completed');
      expect(await w.chain.pub.getBalance({ address: next.destination as Address })).toBe(parseEther('0.02'));
    });
  }

  it('a cancel after the signed transaction is stored is refused (409); the payout is sent and completes once', async () => {
    const wallet = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.03');
    const refusals: unknown[] = [];
    await freeLease();
    const sender = w.env.services.hotWallet.spawnSender({
      port: w.env.services.payoutSender,
      afterSign: async () => {
        for (const cancel of Object.values(cancels)) refusals.push(await cancel(p.id).catch((e: unknown) => e));
      },
    });
    try {
      expect(await sender.round('ETH')).toMatchObject({ leader: true, sent: 1 });
    } finally {
      await sender.stop();
    }
    expect(refusals).toHaveLength(2);
    for (const e of refusals)
      expect(e).toMatchObject({ code: 'PAYOUT_STATE_CONFLICT', details: { sender: 'evm-hot-wallet' } });
    const [tx] = await txsOf(p.id);
    expect(await payout(p.id)).toMatchObject({ status: 'sent', txHash: tx!.tx_hash });
    await w.chain.mine(3);
    await round();
    await round();
    const done = await payout(p.id);
    expect(done.status).toBe('completed');
    const events = await eventsOfPayout(p.id);
    expect(events.filter((t) => t === 'payout.completed')).toHaveLength(1);
    expect(events).not.toContain('payout.canceled');
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.03'));
    expect(await balances(w.env.services, w.ethWallet)).toEqual({
      amount: new Decimal(wallet.amount).minus(String(done.total)).toFixed(),
      frozen: wallet.frozen,
    });
  });
});
