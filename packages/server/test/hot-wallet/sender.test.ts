import { formatEther, keccak256, parseEther, parseUnits, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { ChainWatcher } from '../../src/features/chain-watch/watcher.js';
import { payoutChainPort } from '../../src/features/hot-wallet/confirmations.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HotWalletSender } from '../../src/features/hot-wallet/sender.js';
import { ALICE, resultOf } from '../http-helpers/admin-fixture.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { anvilBinary, startAnvil, type Anvil } from '../evm/anvil.js';
import { chainDriver, watchEnv, type ChainDriver, type WatchEnv } from '../evm/env.js';
import { TOKEN_ABI } from '../evm/token.js';
import { jobFor, metricValue, setUpChain, txRows } from './common.js';
import { RecorderPort } from './recorder.js';

/**
 * The evm-hot-wallet sender against a real node (anvil), on both stores: ETH and ERC-20 payouts
 * sent, counted to the chain's depth and completed once with the amounts exact; a reorganisation
 * that takes a counted transaction out (snapshot and revert) → back to sent, then completed once;
 * a transaction not mined in time replaced with a higher fee (same nonce), only one mined; a
 * wallet without gas leaves the payout approved with the reason and the metric raised. The key
 * never shows in the sender's log lines.
 */
const suite = anvilBinary === null ? describe.skip : describe;

suite.each(DIALECTS)('hot wallet sender on a real node (anvil), %s', (dialect: Dialect) => {
  let anvil: Anvil;
  let chain: ChainDriver;
  let env: WatchEnv;
  let token: Address;
  let address: Address;
  let sender: HotWalletSender;
  /** The chain watcher, counting the payouts' confirmations into the same recorder port. */
  let watcher: ChainWatcher;
  const key = generatePrivateKey();
  const port = new RecorderPort();
  const logs: string[] = [];

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = chainDriver(anvil);
    token = await chain.deployToken(6);
    env = await watchEnv(dialect);
    address = await setUpChain(env, anvil, chain, token, key);
    await chain.payEth(address, '10');
    await chain.payToken(token, address, '1000');
    sender = env.services.hotWallet.spawnSender({
      port,
      replaceAfterMs: 60_000,
      log: { warn: (m) => logs.push(m) },
    });
    watcher = env.services.chainWatch.spawnWatcher({
      payouts: () => [payoutChainPort(env.services.store, () => port, env.services.hotWallet.metrics)],
    });
  }, 60_000);

  afterAll(async () => {
    await sender?.stop();
    await watcher?.stop();
    await env?.close();
    await anvil?.stop();
    // Never the key, in any spelling, in anything the sender logged.
    expect(logs.join('\n').toLowerCase()).not.toContain(key.slice(2));
  });

  const round = async () => {
    const r = await sender.round('ETH');
    expect(r.leader).toBe(true);
    expect((await watcher.round('ETH')).leader).toBe(true);
    return r;
  };
  const tokenBalance = (who: Address) =>
    chain.pub.readContract({ address: token, abi: TOKEN_ABI, functionName: 'balanceOf', args: [who] });

  it('an ETH payout: signed, broadcast, counted to 3 confirmations, completed once with the fee it cost; amounts exact to the wei', async () => {
    const job = await jobFor(env.services, 'ETH', '0.123456789012345678', null);
    port.add(job);
    const before = await chain.pub.getBalance({ address });
    const nonceBefore = await chain.pub.getTransactionCount({ address });
    expect(await round()).toMatchObject({ sent: 1 });
    const [row] = await txRows(env.services, job.id);
    expect(row).toMatchObject({ status: 'broadcast', nonce: nonceBefore, marked_sent: 1 });
    expect(port.of(job.id)).toEqual([['sent', job.id, row!.tx_hash]]);
    // anvil mines each transaction at once: one confirmation.
    await round();
    expect(port.of(job.id).at(-1)).toEqual(['confirmations', job.id, 1]);
    await chain.mine(2);
    await round();
    const receipt = await chain.pub.getTransactionReceipt({ hash: row!.tx_hash as Hash });
    const fee = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(port.of(job.id)).toEqual([
      ['sent', job.id, row!.tx_hash],
      ['confirmations', job.id, 1],
      ['confirmations', job.id, 3],
      ['completed', job.id, formatEther(fee)],
    ]);
    // Completed once: later rounds say nothing more of it.
    await chain.mine(1);
    await round();
    expect(port.of(job.id)).toHaveLength(4);
    expect((await txRows(env.services, job.id))[0]).toMatchObject({ status: 'confirmed', confirmations: 3 });
    expect(await chain.pub.getBalance({ address: job.destination as Address })).toBe(parseEther(job.amount));
    expect(before - (await chain.pub.getBalance({ address }))).toBe(parseEther(job.amount) + fee);
    expect(await chain.pub.getTransactionCount({ address })).toBe(nonceBefore + 1);
  });

  it('an ERC-20 payout: a transfer call of the contract, the destination gets the exact amount; the fee is left to the estimate', async () => {
    const job = await jobFor(env.services, 'USDT', '12.345678', { contract: token, decimals: 6 });
    port.add(job);
    const before = await tokenBalance(address);
    await round();
    const [row] = await txRows(env.services, job.id);
    await chain.mine(2);
    await round();
    expect(port.of(job.id)).toEqual([
      ['sent', job.id, row!.tx_hash],
      ['confirmations', job.id, 3],
      ['completed', job.id, undefined],
    ]);
    expect(await tokenBalance(job.destination as Address)).toBe(parseUnits('12.345678', 6));
    expect(before - (await tokenBalance(address))).toBe(parseUnits('12.345678', 6));
  });

  it('one sender per chain: another instance stays on standby while the lease is held, and signs nothing', async () => {
    const other = env.services.hotWallet.spawnSender({ port });
    try {
      const job = await jobFor(env.services, 'ETH', '0.01', null);
      port.add(job);
      await round();
      expect(await other.round('ETH')).toEqual({ leader: false, reason: 'standby' });
      expect(await txRows(env.services, job.id)).toHaveLength(1);
      expect(port.of(job.id).filter((c) => c[0] === 'sent')).toHaveLength(1);
      await chain.mine(2);
      await round();
      expect(port.of(job.id).at(-1)?.[0]).toBe('completed');
    } finally {
      await other.stop();
    }
  });

  it('without the payouts feature attached, the sender does nothing', async () => {
    const idle = env.services.hotWallet.spawnSender({ port: undefined });
    expect(await idle.round('ETH')).toEqual({ leader: false, reason: 'no_payouts' });
  });

  it('a node of another network than the watched one: nothing is signed, the error shown on the hot wallet', async () => {
    const db = env.services.store.db;
    await db.updateTable('chain_watches').set({ network_id: '1' }).execute();
    try {
      const job = await jobFor(env.services, 'ETH', '0.02', null);
      port.add(job);
      await expect(sender.round('ETH')).rejects.toThrow(/answers for chain id 31337, but ETH is watched on chain id 1/);
      expect(await txRows(env.services, job.id)).toEqual([]);
      expect(resultOf(await env.admin('GET', '/chains/ETH/hot-wallet')).lastError).toMatch(/chain id 31337/);
      port.approvedJobs.delete(job.id);
    } finally {
      await db.updateTable('chain_watches').set({ network_id: null }).execute();
    }
    await round();
    expect(resultOf(await env.admin('GET', '/chains/ETH/hot-wallet')).lastError).toBeNull();
  });

  it('an amount finer than the token carries is never rounded, a malformed destination never signed: the payout stays approved with the reason', async () => {
    const job = await jobFor(env.services, 'USDT', '1.0000001', { contract: token, decimals: 6 });
    port.add(job);
    await round();
    expect(port.of(job.id)).toEqual([['held', job.id, expect.stringContaining('more decimals than USDT')]]);
    expect(await txRows(env.services, job.id)).toEqual([]);
    port.approvedJobs.delete(job.id);
    const odd = await jobFor(env.services, 'ETH', '1', null, '0x1234');
    port.add(odd);
    await round();
    expect(port.of(odd.id)).toEqual([['held', odd.id, expect.stringContaining('not a 0x address')]]);
    port.approvedJobs.delete(odd.id);
  });

  it('a counted transaction a reorganisation takes out → back to sent, broadcast again from the stored bytes, completed once', async () => {
    const job = await jobFor(env.services, 'ETH', '0.5', null);
    const snapshot = await chain.snapshot();
    port.add(job);
    await round();
    await round();
    const [row] = await txRows(env.services, job.id);
    expect(port.of(job.id)).toEqual([
      ['sent', job.id, row!.tx_hash],
      ['confirmations', job.id, 1],
    ]);
    // The block with the payout is replaced by a longer chain without it.
    await chain.revert(snapshot);
    await chain.mine(2);
    expect(await chain.pub.getBalance({ address: job.destination as Address })).toBe(0n);
    await round();
    expect(port.of(job.id).slice(2)).toEqual([['reorged', job.id]]);
    expect(await metricValue(env.services, 'hostpay_hot_wallet_reorgs_total', { sender: 'evm-hot-wallet' })).toBe(1);
    // The same signed bytes went out again (anvil mined them at once): counted from their new block.
    await round();
    await chain.mine(2);
    await round();
    expect(port.of(job.id).slice(2)).toEqual([
      ['reorged', job.id],
      ['confirmations', job.id, 1],
      ['confirmations', job.id, 3],
      ['completed', job.id, expect.any(String)],
    ]);
    const rows = await txRows(env.services, job.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tx_hash: row!.tx_hash, status: 'confirmed' });
    expect(await chain.pub.getBalance({ address: job.destination as Address })).toBe(parseEther('0.5'));
  });

  it('a transaction not mined in time is replaced with a higher fee and the same nonce, stored first; only one is mined', async () => {
    await chain.test.setAutomine(false);
    try {
      const job = await jobFor(env.services, 'ETH', '0.25', null);
      port.add(job);
      const nonce = await chain.pub.getTransactionCount({ address });
      await round();
      const [first] = await txRows(env.services, job.id);
      // Not yet time: the same transaction stays.
      await round();
      expect(await txRows(env.services, job.id)).toHaveLength(1);
      env.clock.offsetMs += 61_000;
      await round();
      const rows = await txRows(env.services, job.id);
      expect(rows).toHaveLength(2);
      const [old, bump] = rows;
      expect(old).toMatchObject({ id: first!.id, status: 'replaced', replaced_by: bump!.id });
      expect(bump).toMatchObject({ nonce: old!.nonce, status: 'broadcast' });
      expect(BigInt(bump!.max_fee_per_gas) * 1000n).toBeGreaterThanOrEqual(BigInt(old!.max_fee_per_gas) * 1125n);
      expect(BigInt(bump!.max_priority_fee_per_gas) * 1000n).toBeGreaterThanOrEqual(
        BigInt(old!.max_priority_fee_per_gas) * 1125n,
      );
      expect(await metricValue(env.services, 'hostpay_hot_wallet_fee_bumps_total')).toBe(1);
      await chain.mine(3);
      await round();
      expect(await chain.pub.getTransactionCount({ address })).toBe(nonce + 1);
      const mined = await chain.pub.getTransactionReceipt({ hash: bump!.tx_hash as Hash });
      expect(mined.status).toBe('success');
      await expect(chain.pub.getTransactionReceipt({ hash: old!.tx_hash as Hash })).rejects.toThrow();
      expect(port.of(job.id)).toEqual([
        ['sent', job.id, old!.tx_hash],
        // The payout follows the fee bump's hash.
        ['sent', job.id, bump!.tx_hash],
        ['confirmations', job.id, 3],
        ['completed', job.id, formatEther(mined.gasUsed * mined.effectiveGasPrice)],
      ]);
      expect(await chain.pub.getBalance({ address: job.destination as Address })).toBe(parseEther('0.25'));
    } finally {
      await chain.test.setAutomine(true);
    }
  });

  it('a stored transaction that reverts on chain (here: too little gas for the token transfer) fails the payout', async () => {
    const job = await jobFor(env.services, 'USDT', '1', { contract: token, decimals: 6 });
    const nonce = await chain.pub.getTransactionCount({ address });
    const fees = await chain.pub.estimateFeesPerGas();
    // As a crash would leave it: signed and stored, its nonce taken, not broadcast.
    const raw = await privateKeyToAccount(key).signTransaction({
      type: 'eip1559',
      chainId: 31337,
      nonce,
      to: token,
      data: `0xa9059cbb${job.destination.slice(2).padStart(64, '0')}${(1_000_000).toString(16).padStart(64, '0')}`,
      gas: 25_000n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    await env.services.store.writeTransaction(async (trx) => {
      await trx
        .insertInto('hot_wallet_txs')
        .values({
          id: `hwtx_${job.id}`,
          payout_id: job.id,
          chain_id: job.chainId,
          nonce,
          raw,
          tx_hash: keccak256(raw),
          max_fee_per_gas: fees.maxFeePerGas.toString(),
          max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
          gas_limit: '25000',
          status: 'signed',
          block_hash: null,
          block_number: null,
          marked_sent: 0,
          confirmations: 0,
          replaced_by: null,
          created_at: new Date().toISOString(),
          broadcast_at: null,
        })
        .execute();
      await trx
        .updateTable('hot_wallets')
        .set({ next_nonce: nonce + 1 })
        .where('chain_id', '=', job.chainId)
        .execute();
    });
    await round();
    expect(port.of(job.id)).toEqual([['sent', job.id, keccak256(raw)]]);
    await round();
    expect(port.of(job.id)).toEqual([
      ['sent', job.id, keccak256(raw)],
      ['failed', job.id, expect.stringMatching(/^the transaction 0x[0-9a-f]{64} reverted on chain/)],
    ]);
    expect((await txRows(env.services, job.id))[0]).toMatchObject({ status: 'failed' });
    expect(await tokenBalance(job.destination as Address)).toBe(0n);
    // Nothing more of it later.
    await round();
    expect(port.of(job.id)).toHaveLength(2);
  });

  it('a hot wallet without gas: the payout stays approved with the reason, the metric raised; funded, it is sent', async () => {
    // A new key with nothing on it (the old one has nothing in flight, so it may be replaced).
    const poor = generatePrivateKey();
    const poorAddress: Address = resultOf(
      await env.admin('PUT', '/chains/ETH/hot-wallet', { body: { privateKey: poor } }),
    ).address;
    const job = await jobFor(env.services, 'USDT', '5', { contract: token, decimals: 6 });
    await chain.payToken(token, poorAddress, '5');
    port.add(job);
    await round();
    expect(port.of(job.id)).toEqual([
      ['held', job.id, expect.stringMatching(/hot wallet 0x[0-9a-f]{40} balance too low: 0 ETH/)],
    ]);
    expect(await metricValue(env.services, 'hostpay_hot_wallet_insufficient_funds')).toBe(1);
    // On /metrics, for the alert.
    const metrics = await env.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ALICE}` } });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toContain('hostpay_hot_wallet_insufficient_funds{chain="ETH"} 1');
    expect(await txRows(env.services, job.id)).toEqual([]);
    expect(await chain.pub.getTransactionCount({ address: poorAddress as Address })).toBe(0);
    // The same reason is not repeated every round.
    await round();
    expect(port.of(job.id)).toHaveLength(1);

    await chain.payEth(poorAddress, '1');
    await round();
    expect(port.of(job.id).map((c) => c[0])).toEqual(['held', 'sent']);
    expect(await metricValue(env.services, 'hostpay_hot_wallet_insufficient_funds')).toBe(0);
    expect(await chain.pub.getTransactionCount({ address: poorAddress as Address })).toBe(1);
  });
});
