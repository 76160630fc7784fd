import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Decimal } from '@hostpay/protocol';
import { formatEther, parseEther, type Address, type Hash, type Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary } from '../evm/anvil.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { runSenderProcess, txRows } from '../hot-wallet/common.js';
import { evmPayoutWorld, type EvmPayoutWorld } from './evm-world.js';
import { balances } from './world.js';

/**
 * Fee bumps through the real payouts feature on a real node (anvil), both stores: mining paused
 * past the bump delay (2 s here, HOSTPAY_HOT_WALLET_FEE_BUMP_AFTER_SECONDS; the services' clock is
 * moved on, nothing sleeps), then resumed. The bump mined; the original mined instead; two bumps;
 * a kill -9 between storing a bump and broadcasting it; a reorganisation that swaps which of the
 * two is mined. Each time the payout follows the mined transaction, completes once, and the
 * wallet is debited its amount and the mined transaction's fee exactly; later payouts go on.
 */
const suite = anvilBinary === null ? describe.skip : describe;
const SCRIPT = fileURLToPath(new URL('./payout-sender-process.mjs', import.meta.url));
const BUMP_AFTER_S = 2;

suite.each(DIALECTS)('fee bumps of hot wallet payouts on anvil, %s', (dialect: Dialect) => {
  let w: EvmPayoutWorld;

  beforeAll(async () => {
    w = await evmPayoutWorld(dialect, { feeBumpAfterSeconds: BUMP_AFTER_S });
    await w.chain.payEth(w.hot!, '20');
  }, 60_000);
  afterAll(async () => w?.close());
  afterEach(async () => {
    await w.chain.test.setAutomine(true);
  });

  /** Mining paused, as `evm_setIntervalMining [0]` with automine off leaves a node: nothing is mined. */
  const pause = async () => {
    await w.chain.test.setAutomine(false);
    await w.chain.test.setIntervalMining({ interval: 0 });
  };
  /** Past the bump delay on the services' clock. */
  const later = () => {
    w.env.clock.offsetMs += BUMP_AFTER_S * 1000 + 500;
  };
  const round = () => w.round();
  const payout = (id: string) => w.env.services.payouts.getAny(id);
  const rowsOf = async (id: string) =>
    (await txRows(w.env.services, id)).map((r) => ({ status: r.status, hash: r.tx_hash as Hash, raw: r.raw as Hex }));
  const pending = (hash: Hash) => w.chain.pub.getTransaction({ hash }).then((t) => t.blockNumber === null);

  /** Mined to the depth: completed once, debited amount + the mined transaction's fee, which paid the destination. */
  async function expectCompletedBy(
    id: string,
    minedHash: Hash,
    amount: string,
    before: { amount: string },
    /** Other payouts of the wallet completed meanwhile: their totals are debited too. */
    also: string[] = [],
  ) {
    await w.chain.mine(2);
    await round();
    await round();
    const done = await payout(id);
    expect(done).toMatchObject({ status: 'completed', txHash: minedHash, confirmations: 3 });
    const receipt = await w.chain.pub.getTransactionReceipt({ hash: minedHash });
    const fee = new Decimal(formatEther(receipt.gasUsed * receipt.effectiveGasPrice));
    expect(String(done.networkFee)).toBe(fee.toFixed());
    let expected = new Decimal(before.amount).minus(amount).minus(fee);
    for (const other of also) {
      const o = await payout(other);
      expect(o.status).toBe('completed');
      expect((await w.eventsOfPayout(other)).filter((t) => t === 'payout.completed')).toHaveLength(1);
      expected = expected.minus(String(o.total));
    }
    expect((await balances(w.env.services, w.ethWallet)).amount).toBe(expected.toFixed());
    const events = await w.eventsOfPayout(id);
    expect(events.filter((t) => t === 'payout.completed')).toHaveLength(1);
    // Freeze, unfreeze, debit: the bumps moved no money.
    expect(events.filter((t) => t === 'wallet.balance_changed')).toHaveLength(3);
    const rows = await rowsOf(id);
    expect(rows.filter((r) => r.status === 'confirmed').map((r) => r.hash)).toEqual([minedHash]);
    expect(rows.filter((r) => r.status !== 'confirmed').every((r) => r.status === 'replaced')).toBe(true);
    return done;
  }

  /** The chain, the node's pool and the store agree on the wallet's next nonce. */
  async function expectNoncesAgree() {
    const hw = await w.env.services.store.db.selectFrom('hot_wallets').select('next_nonce').executeTakeFirstOrThrow();
    const mined = await w.chain.pub.getTransactionCount({ address: w.hot! });
    expect(await w.chain.pub.getTransactionCount({ address: w.hot!, blockTag: 'pending' })).toBe(mined);
    expect(Number(hw.next_nonce)).toBe(mined);
  }

  it('the bump is mined: the payout takes its hash (the original named as replaced), completes once; a later payout is sent and completed too', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.1');
    await pause();
    await round();
    const first = await payout(p.id);
    expect(first.status).toBe('sent');
    const original = first.txHash as Hash;
    expect(await pending(original)).toBe(true);

    later();
    const q = await w.approvedPayout(w.ethWallet, '0.2');
    await round();
    const bumped = await payout(p.id);
    const [old, bump] = await rowsOf(p.id);
    expect(old).toMatchObject({ status: 'replaced', hash: original });
    expect(bump).toMatchObject({ status: 'broadcast' });
    expect(bumped).toMatchObject({ status: 'sent', txHash: bump!.hash, reason: `fee bump: replaces ${original}` });
    expect(bumped.timeline.map((t) => [t.status, t.reason])).toEqual([
      ['pending_approval', null],
      ['approved', null],
      ['sent', null],
      ['sent', `fee bump: replaces ${original}`],
    ]);
    // The round that bumped also sent the next approved payout.
    expect((await payout(q.id)).status).toBe('sent');
    expect((await w.eventsOfPayout(p.id)).filter((t) => t === 'payout.sent')).toHaveLength(2);

    await w.chain.mine(1);
    await round();
    expect(await payout(p.id)).toMatchObject({ status: 'sent', txHash: bump!.hash, confirmations: 1 });
    const done = await expectCompletedBy(p.id, bump!.hash, '0.1', before, [q.id]);
    expect(await w.chain.pub.getTransactionReceipt({ hash: original }).catch(() => null)).toBeNull();
    // A late report of the replaced transaction changes nothing: completed once, with the bump.
    const port = w.env.services.payoutSender;
    await expect(port.markSent(p.id, { txHash: original, replacement: 'mined' }, 'system')).rejects.toMatchObject({
      code: 'PAYOUT_STATE_CONFLICT',
    });
    await port.markCompleted(p.id, {});
    await round();
    expect(await payout(p.id)).toEqual(done);
    expect((await w.eventsOfPayout(p.id)).filter((t) => t === 'payout.completed')).toHaveLength(1);
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.1'));
    expect(await w.chain.pub.getBalance({ address: q.destination as Address })).toBe(parseEther('0.2'));
    await expectNoncesAgree();
  });

  it('the original is mined instead of its bump: the payout follows the original back, completes once with its fee', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.3');
    await pause();
    await round();
    later();
    await round();
    const [orig, bump] = await rowsOf(p.id);
    expect(bump!.status).toBe('broadcast');
    expect((await payout(p.id)).txHash).toBe(bump!.hash);
    // A miner that never saw the bump mines the original.
    await w.chain.test.dropTransaction({ hash: bump!.hash });
    await w.chain.pub.sendRawTransaction({ serializedTransaction: orig!.raw });
    await w.chain.mine(1);
    await round();
    const back = await payout(p.id);
    expect(back).toMatchObject({ status: 'sent', txHash: orig!.hash, reason: `mined: replaces ${bump!.hash}` });
    expect((await rowsOf(p.id)).map((r) => r.status)).toEqual(['mined', 'replaced']);
    await expectCompletedBy(p.id, orig!.hash, '0.3', before);
    expect((await payout(p.id)).timeline.map((t) => t.reason)).toEqual([
      null,
      null,
      null,
      `fee bump: replaces ${orig!.hash}`,
      `mined: replaces ${bump!.hash}`,
      null,
    ]);
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.3'));
    await expectNoncesAgree();
  });

  it('two bumps: each at least 12.5 % above the one before, the second mined; completed once', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.4');
    await pause();
    await round();
    later();
    await round();
    later();
    await round();
    const rows = await txRows(w.env.services, p.id);
    expect(rows.map((r) => r.status)).toEqual(['replaced', 'replaced', 'broadcast']);
    for (let i = 1; i < rows.length; i++)
      expect(BigInt(rows[i]!.max_fee_per_gas) * 1000n).toBeGreaterThanOrEqual(
        BigInt(rows[i - 1]!.max_fee_per_gas) * 1125n,
      );
    const [h1, h2, h3] = rows.map((r) => r.tx_hash as Hash);
    expect((await payout(p.id)).timeline.slice(3).map((t) => t.reason)).toEqual([
      `fee bump: replaces ${h1}`,
      `fee bump: replaces ${h2}`,
    ]);
    await w.chain.mine(1);
    await round();
    await expectCompletedBy(p.id, h3!, '0.4', before);
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.4'));
    await expectNoncesAgree();
  });

  it('a reorganisation swaps which of the two is mined: back to sent, the original followed, completed once with its fee', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.5');
    await pause();
    await round();
    later();
    await round();
    const [orig, bump] = await rowsOf(p.id);
    const snapshot = await w.chain.snapshot();
    await w.chain.mine(1);
    await round();
    expect(await payout(p.id)).toMatchObject({ txHash: bump!.hash, confirmations: 1 });
    // The chain forgets the block with the bump; the original is mined in its place.
    await w.chain.revert(snapshot);
    await w.chain.test.request({ method: 'anvil_dropAllTransactions' } as never);
    await w.chain.pub.sendRawTransaction({ serializedTransaction: orig!.raw });
    await w.chain.mine(1);
    await round();
    const swapped = await payout(p.id);
    expect(swapped).toMatchObject({ status: 'sent', txHash: orig!.hash });
    expect(swapped.timeline.slice(3).map((t) => t.reason)).toEqual([
      `fee bump: replaces ${orig!.hash}`,
      'reorganisation',
      `mined: replaces ${bump!.hash}`,
    ]);
    await expectCompletedBy(p.id, orig!.hash, '0.5', before);
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.5'));
    await expectNoncesAgree();
  });

  it('killed (SIGKILL) between storing a bump and broadcasting it: restarted, the stored bump goes out and is followed; completed once', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.6');
    await pause();
    await round();
    const original = (await payout(p.id)).txHash as Hash;
    // Another instance, its clock past this one's lease and the bump delay, dies after storing the bump.
    w.env.clock.offsetMs += 11_000;
    const killed = await runSenderProcess(SCRIPT, w.env, join(w.env.dataDir, `bump-kill-${dialect}.json`), {
      HOTWALLET_KILL_AFTER_SIGN: '1',
      HOTWALLET_CLOCK_OFFSET_MS: String(w.env.clock.offsetMs),
      HOTWALLET_FEE_BUMP_AFTER_SECONDS: String(BUMP_AFTER_S),
    });
    expect(killed.signal).toBe('SIGKILL');
    const [old, bump] = await rowsOf(p.id);
    expect(old).toMatchObject({ status: 'replaced', hash: original });
    expect(bump).toMatchObject({ status: 'signed' });
    expect(await payout(p.id)).toMatchObject({ status: 'sent', txHash: original });
    expect(await w.chain.pub.getTransaction({ hash: bump!.hash }).catch(() => null)).toBeNull();

    // This instance takes the chain back once the dead one's lease ran out: the stored bump goes out.
    w.env.clock.offsetMs += 11_000;
    await round();
    expect(await payout(p.id)).toMatchObject({
      status: 'sent',
      txHash: bump!.hash,
      reason: `fee bump: replaces ${original}`,
    });
    expect(await pending(bump!.hash)).toBe(true);
    await w.chain.mine(1);
    await round();
    await expectCompletedBy(p.id, bump!.hash, '0.6', before);
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.6'));
    await expectNoncesAgree();
  });

  it('killed between telling the payout the bump and moving marked_sent, then the original mined: completed with the original', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.35');
    await pause();
    await round();
    later();
    await round();
    const [orig, bump] = await txRows(w.env.services, p.id);
    expect((await payout(p.id)).txHash).toBe(bump!.tx_hash);
    // What a crash between the payouts feature's commit (the bump's hash) and the flag's leaves:
    // the payout has the bump's hash, the flag is still on the original.
    const db = w.env.services.store.db;
    await db.updateTable('hot_wallet_txs').set({ marked_sent: 1 }).where('id', '=', orig!.id).execute();
    await db.updateTable('hot_wallet_txs').set({ marked_sent: 0 }).where('id', '=', bump!.id).execute();
    await w.chain.test.dropTransaction({ hash: bump!.tx_hash as Hash });
    await w.chain.pub.sendRawTransaction({ serializedTransaction: orig!.raw as Hex });
    await w.chain.mine(1);
    await round();
    expect(await payout(p.id)).toMatchObject({
      status: 'sent',
      txHash: orig!.tx_hash,
      reason: `mined: replaces ${bump!.tx_hash}`,
    });
    await expectCompletedBy(p.id, orig!.tx_hash as Hash, '0.35', before);
    expect(await w.chain.pub.getTransactionReceipt({ hash: bump!.tx_hash as Hash }).catch(() => null)).toBeNull();
    await expectNoncesAgree();
  });

  it('its first broadcast refused (the base fee rose above its max fee while it waited unsent): signed again higher at its nonce, sent, completed; the chain goes on', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.15');
    await w.killedAfterSigning();
    const [stored] = await txRows(w.env.services, p.id);
    expect(stored).toMatchObject({ status: 'signed' });
    expect((await payout(p.id)).status).toBe('approved');
    // Meanwhile the base fee rises far above what the stored bytes offer: the node refuses them.
    await w.chain.test.setNextBlockBaseFeePerGas({ baseFeePerGas: BigInt(stored!.max_fee_per_gas) * 20n });
    await w.chain.mine(1);
    await expect(w.chain.pub.sendRawTransaction({ serializedTransaction: stored!.raw as Hex })).rejects.toThrow();
    const q = await w.approvedPayout(w.ethWallet, '0.05');

    const r = await round();
    const [old, again] = await txRows(w.env.services, p.id);
    expect(old).toMatchObject({ status: 'replaced', replaced_by: again!.id });
    expect(again).toMatchObject({ status: 'broadcast', nonce: stored!.nonce });
    expect(BigInt(again!.max_fee_per_gas)).toBeGreaterThan(BigInt(stored!.max_fee_per_gas) * 20n);
    expect(await payout(p.id)).toMatchObject({ status: 'sent', txHash: again!.tx_hash });
    // Not held up behind it: the payout approved meanwhile is sent in the same round.
    expect(r).toMatchObject({ unsent: 0, sent: 1 });
    await w.chain.mine(1);
    await round();
    await expectCompletedBy(p.id, again!.tx_hash as Hash, '0.15', before, [q.id]);
    expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.15'));
    expect(await w.chain.pub.getBalance({ address: q.destination as Address })).toBe(parseEther('0.05'));
    expect(await w.chain.pub.getTransactionReceipt({ hash: stored!.tx_hash as Hash }).catch(() => null)).toBeNull();
    await expectNoncesAgree();
  });
});
