import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services.js';
import { watchEnv, type WatchEnv } from '../evm/env.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { tronHarness, watchTronStandIn } from './stand-ins/tron-harness.js';
import { render, USDT_TRON } from './stand-ins/tron-node.js';

/**
 * Security round 3, item 3: a TRON node failing a consistency check every round (its transaction
 * infos never those of the block it serves: "the chain moved") kept the watch at `standby` with
 * `lastError: null` while no payment on the chain was seen. Rounds failed in a row are counted in
 * the store; past the threshold (3 here) the watch is `failing` with a last error that says what
 * failed, on this instance and on any other reading the store, in /readyz (still ready) and in
 * `hostpay_chain_watch_failed_rounds`; a good round resets it all. Node errors count the same way.
 */
const FAILING_AFTER = 3;
const INFOS = '/wallet/gettransactioninfobyblocknum';

describe.each(DIALECTS)('a watch failing round after round, on %s', (dialect: Dialect) => {
  const h = tronHarness({ asset: 'USDT' });
  let env: WatchEnv;
  let other: Services;

  beforeAll(async () => {
    const node = await h.start();
    env = await watchEnv(dialect, { failingAfter: FAILING_AFTER });
    other = await env.another();
    await watchTronStandIn(env, node);
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await h.stop();
  });

  const status = async () =>
    (resultOf(await env.admin('GET', '/chains/TRON/watch')) as { status: Record<string, unknown> }).status;
  const elsewhere = async () =>
    (await other.chainWatch.admin.listChainWatches()).find((w) => w.chain === 'TRON')!.status;
  const gauge = async () =>
    (await env.services.chainWatch.metrics.failedRounds.get()).values.find((v) => v.labels.chain === 'TRON')?.value;
  const readyChains = async () => {
    const res = await env.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    return (res.json() as { result: { chains: unknown[] } }).result.chains;
  };
  const stored = async () =>
    (await env.services.store.db.selectFrom('chain_watches').select('failed_rounds').executeTakeFirstOrThrow())
      .failed_rounds;

  it('"the chain moved" every round: failing past the threshold, everywhere it is shown; a good round resets it', async () => {
    const watcher = env.services.chainWatch.watcher;
    await watcher.round('TRON');
    const c = await env.services.checkouts.create(env.merchantId, {
      amount: '25',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      expiresIn: 3600,
    });
    const option = await env.services.store.db
      .selectFrom('checkout_options')
      .select(['address', 'amount_due'])
      .where('checkout_id', '=', c.id)
      .executeTakeFirstOrThrow();
    h.node.payTrc20(USDT_TRON, option.address, BigInt(Number(option.amount_due) * 1e6));
    h.node.produce(1);
    h.node.answerOverrides.set(INFOS, { text: render([]) });

    // Below the threshold a block that moved is what any reorganisation brings: counted, not shown.
    for (let round = 1; round < FAILING_AFTER; round++) {
      expect(await watcher.round('TRON')).toEqual({ leader: false, reason: 'chain_moved' });
      expect(await status()).toMatchObject({ state: 'watching', lastError: null, failedRounds: round });
      expect(await stored()).toBe(round);
    }
    expect(await watcher.round('TRON')).toEqual({ leader: false, reason: 'chain_moved' });
    const failing = await status();
    expect(failing).toMatchObject({ state: 'failing', failedRounds: FAILING_AFTER });
    expect(failing.lastError).toMatch(
      /^the chain moved while it was read: TRON node gettransactioninfobyblocknum \d+: not the transactions of block [0-9a-f]+: the chain changed \(3 rounds in a row failed\)$/,
    );
    expect(failing.lastErrorAt).not.toBeNull();
    expect(await gauge()).toBe(FAILING_AFTER);
    expect(await readyChains()).toEqual([
      { chain: 'TRON', state: 'failing', leader: true, lastError: failing.lastError, failedRounds: FAILING_AFTER },
    ]);
    // Another instance, which does not hold the lease, reads the same from the store.
    expect(await elsewhere()).toMatchObject({ state: 'failing', lastError: failing.lastError, failedRounds: 3 });
    const transfers = () =>
      env.services.store.db.selectFrom('transfers').select('tx_hash').where('checkout_id', '=', c.id).execute();
    expect(await transfers()).toEqual([]);

    // The node answers consistently again: one good round clears it all, and the payment is seen.
    h.node.answerOverrides.delete(INFOS);
    expect(await watcher.round('TRON')).toMatchObject({ leader: true, reported: 1 });
    expect(await status()).toMatchObject({ state: 'watching', lastError: null, failedRounds: 0 });
    expect(await elsewhere()).toMatchObject({ state: 'watching', lastError: null, failedRounds: 0 });
    expect(await stored()).toBe(0);
    expect(await gauge()).toBe(0);
    expect(await transfers()).toHaveLength(1);
  });

  it('node errors: error from the first round, failing past the threshold, with what failed', async () => {
    const watcher = env.services.chainWatch.watcher;
    h.node.answerOverrides.set('/wallet/getnowblock', { status: 503, text: 'Service Unavailable' });
    try {
      await expect(watcher.round('TRON')).rejects.toThrow(/getnowblock/);
      const first = await status();
      expect(first).toMatchObject({ state: 'error', failedRounds: 1 });
      expect(first.lastError).toMatch(/getnowblock/);
      for (let round = 2; round <= FAILING_AFTER; round++) await expect(watcher.round('TRON')).rejects.toThrow();
      const failing = await status();
      expect(failing).toMatchObject({ state: 'failing', failedRounds: FAILING_AFTER });
      expect(failing.lastError).toMatch(/getnowblock.*\(3 rounds in a row failed\)$/);
      expect(await elsewhere()).toMatchObject({ state: 'failing', failedRounds: FAILING_AFTER });
    } finally {
      h.node.answerOverrides.delete('/wallet/getnowblock');
    }
    await watcher.round('TRON');
    expect(await status()).toMatchObject({ state: 'watching', lastError: null, failedRounds: 0 });
  });
});
