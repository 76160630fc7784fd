import { Decimal } from '@hostpay/protocol';
import { parseEther, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary } from '../evm/anvil.js';
import { TOKEN_ABI } from '../evm/token.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { evmPayoutWorld, type EvmPayoutWorld } from './evm-world.js';
import { balances } from './world.js';

/**
 * Fault: the node stops mining under a steady payout load, past the fee bump delay (1 s here),
 * then mines again (`evm_setIntervalMining [1]`). The hot wallet sender and the chain watcher run
 * their own loops (as in a server); payouts of ETH and USDT are requested and approved before,
 * during and after the pause. Afterwards: every approved payout completed exactly once and paid
 * its destination exactly its amount; the chain's nonce, the node's pool and the store's next
 * nonce agree, one confirmed transaction per payout; what the wallets hold frozen equals what the
 * live payouts hold, during the pause and after. Both stores. Bounded: each wait has a deadline.
 * On the old code the first bump halted the chain's payouts for good (issue 40).
 */
const suite = anvilBinary === null ? describe.skip : describe;
const PER_PHASE = 12;

suite.each(DIALECTS)('mining paused under a steady payout load (anvil, %s)', (dialect: Dialect) => {
  let w: EvmPayoutWorld;

  beforeAll(async () => {
    w = await evmPayoutWorld(dialect, { feeBumpAfterSeconds: 1 });
    await w.chain.payEth(w.hot!, '50');
    await w.chain.payToken(w.token, w.hot!, '5000');
  }, 60_000);
  afterAll(async () => {
    await w?.env.services.hotWallet.sender.stop();
    await w?.env.services.chainWatch.watcher.stop();
    await w?.close();
  });

  const db = () => w.env.services.store.db;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Waits for `done` (checked every 200 ms), failing with `what` after `ms`. */
  async function until(what: string, ms: number, done: () => Promise<boolean>) {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
      await sleep(200);
    }
  }

  /** The wallets' frozen amounts equal what the live (not final) payouts hold. */
  async function expectFreezesMatchLivePayouts() {
    for (const walletId of [w.ethWallet, w.usdtWallet]) {
      const live = await db()
        .selectFrom('payouts')
        .select('frozen')
        .where('wallet_id', '=', walletId)
        .where('status', 'in', ['pending_approval', 'approved', 'sent'])
        .execute();
      const held = live.reduce((sum, p) => sum.plus(String(p.frozen)), new Decimal(0));
      expect((await balances(w.env.services, walletId)).frozen).toBe(held.toFixed());
    }
  }

  it('every approved payout completes exactly once, nonces agree, freezes equal live payouts', async () => {
    const before = {
      eth: await balances(w.env.services, w.ethWallet),
      usdt: await balances(w.env.services, w.usdtWallet),
    };
    const payouts: { id: string; destination: string; asset: 'ETH' | 'USDT'; amount: string }[] = [];
    /** A phase of steady load: one approved payout every 100 ms, ETH and USDT in turn. */
    async function load(phase: number) {
      for (let i = 0; i < PER_PHASE; i++) {
        const asset = i % 2 === 0 ? 'ETH' : 'USDT';
        const amount = asset === 'ETH' ? `0.0${phase}${i + 10}` : `${phase}.${i + 10}`;
        const p = await w.approvedPayout(asset === 'ETH' ? w.ethWallet : w.usdtWallet, amount);
        payouts.push({ ...p, asset, amount });
        await sleep(100);
      }
    }
    const bumps = () => w.metric('hostpay_hot_wallet_fee_bumps_total', { chain: 'ETH' });

    w.env.services.hotWallet.sender.start();
    w.env.services.chainWatch.watcher.start();
    await load(1);

    await w.chain.test.setAutomine(false);
    await w.chain.test.setIntervalMining({ interval: 0 });
    await load(2);
    // Held past the bump delay: the stuck transactions are replaced, some more than once.
    await until('fee bumps while mining is paused', 20_000, async () => (await bumps()) >= PER_PHASE);
    // Read with the loops stopped for a moment: a completion between the two reads is no mismatch.
    await w.env.services.hotWallet.sender.stop();
    await w.env.services.chainWatch.watcher.stop();
    await expectFreezesMatchLivePayouts();
    w.env.services.hotWallet.sender.start();
    w.env.services.chainWatch.watcher.start();

    await w.chain.test.setIntervalMining({ interval: 1 });
    await load(3);
    const ids = payouts.map((p) => p.id);
    const completed = async () =>
      (await db().selectFrom('payouts').select('id').where('id', 'in', ids).where('status', '=', 'completed').execute())
        .length;
    await until(`all ${ids.length} payouts completed`, 40_000, async () => (await completed()) === ids.length);
    await w.env.services.hotWallet.sender.stop();
    await w.env.services.chainWatch.watcher.stop();
    await w.chain.test.setIntervalMining({ interval: 0 });
    await w.chain.test.setAutomine(true);

    // Completed once each, and each destination paid exactly its amount, once.
    for (const p of payouts) {
      expect(
        (await w.eventsOfPayout(p.id)).filter((t) => t === 'payout.completed'),
        p.id,
      ).toHaveLength(1);
      const got =
        p.asset === 'ETH'
          ? await w.chain.pub.getBalance({ address: p.destination as Address })
          : await w.chain.pub.readContract({
              address: w.token,
              abi: TOKEN_ABI,
              functionName: 'balanceOf',
              args: [p.destination as Address],
            });
      expect(got, p.id).toBe(p.asset === 'ETH' ? parseEther(p.amount) : parseUnits(p.amount, 6));
    }
    // The ledger: each wallet debited exactly the totals of its payouts; nothing left frozen.
    const done = await Promise.all(ids.map((id) => w.env.services.payouts.getAny(id)));
    for (const [asset, walletId, start] of [
      ['ETH', w.ethWallet, before.eth],
      ['USDT', w.usdtWallet, before.usdt],
    ] as const) {
      const debited = done.filter((p) => p.asset === asset).reduce((s, p) => s.plus(String(p.total)), new Decimal(0));
      expect(await balances(w.env.services, walletId)).toEqual({
        amount: new Decimal(start.amount).minus(debited).toFixed(),
        frozen: start.frozen,
      });
    }
    await expectFreezesMatchLivePayouts();

    // Nonces: the chain, the node's pool and the store agree; one confirmed transaction per payout.
    const hot = w.hot!;
    const mined = await w.chain.pub.getTransactionCount({ address: hot });
    expect(await w.chain.pub.getTransactionCount({ address: hot, blockTag: 'pending' })).toBe(mined);
    const hw = await db().selectFrom('hot_wallets').select('next_nonce').executeTakeFirstOrThrow();
    expect(Number(hw.next_nonce)).toBe(mined);
    const txs = await db().selectFrom('hot_wallet_txs').select(['payout_id', 'nonce', 'status', 'tx_hash']).execute();
    const confirmed = txs.filter((t) => t.status === 'confirmed');
    expect(confirmed.map((t) => t.payout_id).sort()).toEqual([...ids].sort());
    expect(new Set(confirmed.map((t) => Number(t.nonce))).size).toBe(ids.length);
    expect(txs.every((t) => t.status === 'confirmed' || t.status === 'replaced')).toBe(true);
    // Each payout names the transaction the chain mined.
    for (const p of done) expect(p.txHash).toBe(confirmed.find((t) => t.payout_id === p.id)!.tx_hash);
    expect(await bumps()).toBeGreaterThanOrEqual(PER_PHASE);
  }, 90_000);
});
