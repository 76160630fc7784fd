import { generatePrivateKey } from 'viem/accounts';
import type { Address } from 'viem';
import { ALICE, resultOf } from '../http-helpers/admin-fixture.js';
import { startAnvil, type Anvil } from '../evm/anvil.js';
import { chainDriver, watchEnv, type ChainDriver, type WatchEnv } from '../evm/env.js';
import type { Dialect } from '../helpers.js';
import { freshAddress, setUpChain } from '../hot-wallet/common.js';
import { expect } from 'vitest';
import { ctx, eventsOf } from './world.js';

/**
 * The real payouts feature beside a real node: anvil with a 6-decimal token that is the catalog's
 * USDT on ETH, the ETH watch (3 confirmations) and a hot wallet, a merchant with an ETH and a
 * USDT wallet on ETH, and fee estimates of 0.001 ETH and 1.5 USDT.
 */
export async function evmPayoutWorld(
  dialect: Dialect,
  opts: { hotWallet?: boolean; feeBumpAfterSeconds?: number } = {},
) {
  const anvil: Anvil = await startAnvil();
  const chain: ChainDriver = chainDriver(anvil);
  const token: Address = await chain.deployToken(6);
  const env: WatchEnv = await watchEnv(
    dialect,
    {},
    opts.feeBumpAfterSeconds === undefined
      ? {}
      : { config: { hotWalletFeeBumpAfterSeconds: opts.feeBumpAfterSeconds } },
  );
  resultOf(await env.admin('PATCH', '/networks/net_usdt_eth', { body: { tokenContract: token } }));
  const key = generatePrivateKey();
  let hot: Address | null = null;
  if (opts.hotWallet ?? true) hot = await setUpChain(env, anvil, chain, token, key);
  else
    resultOf(
      await env.admin('PUT', '/chains/ETH/watch', {
        body: { rpcUrl: anvil.url, confirmations: 3, pollIntervalMs: 500, startBlock: (await chain.head()) + 1 },
      }),
    );
  resultOf(await env.admin('PUT', '/payout-fees', { body: { chain: 'ETH', asset: 'ETH', networkFee: '0.001' } }));
  resultOf(await env.admin('PUT', '/payout-fees', { body: { chain: 'ETH', asset: 'USDT', networkFee: '1.5' } }));
  const { admin } = env.services;
  const merchantId = (await admin.createMerchant('EVM Payout Shop', ctx)).id;
  const ethWallet = (await admin.createWallet({ merchantId, asset: 'ETH', chain: 'ETH' }, ctx)).id;
  const usdtWallet = (await admin.createWallet({ merchantId, asset: 'USDT', chain: 'ETH' }, ctx)).id;
  await admin.post({ walletId: ethWallet, kind: 'credit', amount: '10' }, ctx);
  await admin.post({ walletId: usdtWallet, kind: 'credit', amount: '1000' }, ctx);

  /** A destination of the merchant's book, still cooling off (24 h), activated by an operator. */
  async function destination(address = freshAddress()) {
    const d = await env.services.payouts.addDestination(merchantId, { chain: 'ETH', address });
    await env.services.payouts.activateDestination(d.id, ctx);
    return { id: d.id, address: address.toLowerCase() };
  }

  /** The merchant requests, the operator approves: an approved payout. */
  async function approvedPayout(walletId: string, amount: string, to?: string) {
    const d = await destination(to);
    const p = await env.services.payouts.create(merchantId, { walletId, amount, destinationId: d.id });
    await env.services.payouts.approve(p.id, ctx);
    return { id: p.id, destination: d.address };
  }

  /** A series' value as /metrics shows it (0 when absent), its labels in any order. */
  async function metric(name: string, labels: Record<string, string>): Promise<number> {
    const res = await env.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ALICE}` } });
    if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
    const want = Object.entries(labels)
      .map(([k, v]) => `${k}="${v}"`)
      .sort();
    for (const line of res.body.split('\n')) {
      const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
      if (m === null || m[1] !== name) continue;
      if (m[2]!.split(',').sort().join(',') === want.join(',')) return Number(m[3]);
    }
    return 0;
  }

  /** A sender round, then a watcher round (it counts the payouts' confirmations); both must lead. */
  async function round() {
    const r = await env.services.hotWallet.sender.round('ETH');
    expect(r.leader).toBe(true);
    expect((await env.services.chainWatch.watcher.round('ETH')).leader).toBe(true);
    return r;
  }

  /**
   * An instance that dies right after storing a signed transaction, before broadcasting it: one
   * round of a sender that throws after signing, the wallet's lease freed before and after so the
   * services' own sender goes on at once.
   */
  async function killedAfterSigning() {
    const freeLease = () =>
      env.services.store.db.updateTable('hot_wallets').set({ lease_owner: null, lease_expires_at: null }).execute();
    await freeLease();
    const dying = env.services.hotWallet.spawnSender({
      port: env.services.payoutSender,
      afterSign: () => {
        throw new Error('killed after signing');
      },
    });
    await expect(dying.round('ETH')).rejects.toThrow('killed after signing');
    await dying.stop();
    await freeLease();
  }

  /** This payout's events (and its postings'), oldest first: the type alone. */
  const eventsOfPayout = async (id: string) =>
    (await eventsOf(env.services, merchantId))
      .filter((e) => e.object.id === id || e.object.payoutId === id)
      .map((e) => e.type);

  /**
   * A payout sent, taken out by a reorganisation and sent again: its timeline says so, it
   * completed once, and its wallet moved three times (freeze, unfreeze, debit). Returns the payout.
   */
  async function expectCompletedOnceAfterReorg(id: string) {
    const done = await env.services.payouts.getAny(id);
    expect(done.status).toBe('completed');
    expect(done.timeline.map((t) => [t.status, t.reason])).toEqual([
      ['pending_approval', null],
      ['approved', null],
      ['sent', null],
      ['sent', 'reorganisation'],
      ['completed', null],
    ]);
    const events = await eventsOfPayout(id);
    expect(events.filter((t) => t === 'payout.completed')).toHaveLength(1);
    expect(events.filter((t) => t === 'wallet.balance_changed')).toHaveLength(3);
    return done;
  }

  return {
    anvil,
    chain,
    token,
    env,
    key,
    hot,
    merchantId,
    ethWallet,
    usdtWallet,
    destination,
    approvedPayout,
    round,
    killedAfterSigning,
    metric,
    eventsOfPayout,
    expectCompletedOnceAfterReorg,
    async close() {
      await env.close();
      await anvil.stop();
    },
  };
}
export type EvmPayoutWorld = Awaited<ReturnType<typeof evmPayoutWorld>>;
