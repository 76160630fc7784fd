import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { postgresAvailable } from '../helpers.js';
import { anvilBinary, startAnvil, type Anvil } from './anvil.js';
import { checkoutState, ethCheckout, eventTypes } from './common.js';
import { chainDriver, watchEnv, type ChainDriver, type WatchEnv } from './env.js';

/**
 * Two instances over one PostgreSQL store, each with its own watcher, rounds run at the same
 * time: exactly one watches the chain (the lease), nothing is reported twice, and when the one
 * watching dies the other takes the chain over once the lease has run out.
 */
const suite = anvilBinary === null || !postgresAvailable ? describe.skip : describe;

suite('EVM watcher, two instances on PostgreSQL', () => {
  let anvil: Anvil;
  let chain: ChainDriver;
  let env: WatchEnv;
  let token: Address;
  let second: Services;

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = chainDriver(anvil);
    token = await chain.deployToken(6);
    env = await watchEnv('postgres');
    second = await env.another();
    resultOf(
      await env.admin('PUT', '/chains/ETH/watch', {
        body: {
          rpcUrl: anvil.url,
          tokens: [{ asset: 'USDT', contract: token, decimals: 6 }],
          confirmations: 2,
          startBlock: (await chain.head()) + 1,
        },
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await anvil?.stop();
  });

  const reported = (s: Services) =>
    s.chainWatch.metrics.transfers.get().then((m) => m.values.reduce((sum, v) => sum + v.value, 0));

  it('rounds at the same time: one leader at a time, each transfer reported once, each checkout moved once', async () => {
    const a = env.services.chainWatch.watcher;
    const b = second.chainWatch.watcher;
    const paid: Awaited<ReturnType<typeof ethCheckout>>[] = [];
    for (let i = 0; i < 6; i++) {
      const asset = i % 3 === 2 ? 'ETH' : 'USDT';
      const c = await ethCheckout(
        env.services,
        env.merchantId,
        asset === 'ETH' ? '0.0' + (i + 1) : String(20 + i),
        asset,
        asset,
      );
      if (asset === 'ETH') await chain.payEth(c.address, c.due);
      else await chain.payToken(token, c.address, c.due);
      paid.push(c);
      const [ra, rb] = await Promise.all([a.round('ETH'), b.round('ETH')]);
      expect([ra.leader, rb.leader].filter(Boolean)).toHaveLength(1);
    }
    await chain.mine(2);
    for (let i = 0; i < 5; i++) {
      const [ra, rb] = await Promise.all([a.round('ETH'), b.round('ETH')]);
      expect([ra.leader, rb.leader].filter(Boolean)).toHaveLength(1);
    }
    for (const c of paid) {
      const s = await checkoutState(env.services, c.id);
      expect(s.status).toBe('settled');
      expect(s.transfers).toHaveLength(1);
      expect(await eventTypes(env.services, c.id)).toEqual(['checkout.processing', 'checkout.settled']);
    }
    // First reports (created: true) across both instances: one per transfer.
    expect((await reported(env.services)) + (await reported(second))).toBe(paid.length);
  });

  it('the instance watching dies: the other takes the chain over once the lease runs out', async () => {
    const a = env.services.chainWatch.watcher;
    const b = second.chainWatch.watcher;
    // Whoever holds the lease now stops answering (killed: the lease is not released).
    const leader = (await a.round('ETH')).leader ? a : b;
    const other = leader === a ? b : a;
    expect((await other.round('ETH')).leader).toBe(false);
    const c = await ethCheckout(env.services, env.merchantId, '55', 'USDT', 'USDT');
    await chain.payToken(token, c.address, c.due);
    await chain.mine(1);
    expect((await other.round('ETH')).leader).toBe(false);
    env.clock.offsetMs += 31_000;
    const r = await other.round('ETH');
    expect(r.leader).toBe(true);
    expect((await checkoutState(env.services, c.id)).status).toBe('settled');
    // Both instances tell the same story: watched, by the survivor.
    for (const s of [env.services, second])
      expect((await s.admin.getChainWatch('ETH')).status).toMatchObject({
        state: 'watching',
        leaseHolder: other.owner,
      });
  });
});
