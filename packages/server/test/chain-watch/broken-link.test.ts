import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchEnv, type WatchEnv } from '../evm/env.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { sats } from './bitcoin-common.js';
import { EsploraStandIn } from './stand-ins/esplora.js';
import { tronHarness, watchTronStandIn } from './stand-ins/tron-harness.js';
import { USDT_TRON } from './stand-ins/tron-node.js';

/**
 * Security round 3, item 2: a range's first block must follow the block kept below it. With
 * blocks 1–4 scanned and block 4 kept, an Esplora node that then serves a block 5 whose
 * `previousblockhash` is not block 4's hash (a node answering from two branches, or a hostile
 * one) gets no credit from it: the kept block is taken as replaced (the reorganisation path),
 * and the watcher settles the payment only once the node serves a chain that links up.
 */
describe.each(DIALECTS)('a block that does not follow the kept one, on %s', (dialect: Dialect) => {
  const node = new EsploraStandIn();
  let env: WatchEnv;
  let started: { url: string; networkId: string };

  beforeAll(async () => {
    started = await node.start();
    env = await watchEnv(dialect);
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await node.stop();
  });

  const db = () => env.services.store.db;
  const kept = async () =>
    (await db().selectFrom('chain_watch_blocks').select(['number', 'hash']).orderBy('number').execute()).map((b) => [
      Number(b.number),
      b.hash,
    ]);
  const cursor = async () =>
    Number((await db().selectFrom('chain_watches').select('cursor_block').executeTakeFirstOrThrow()).cursor_block);
  const reorgs = async () =>
    (await env.services.chainWatch.metrics.reorgs.get()).values.find((v) => v.labels.chain === 'BTC')?.value ?? 0;
  const status = async (id: string) =>
    (await db().selectFrom('checkouts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const transfers = (id: string) =>
    db().selectFrom('transfers').select(['tx_hash', 'amount', 'retracted']).where('checkout_id', '=', id).execute();
  async function checkout(amount: string) {
    const c = await env.services.checkouts.create(env.merchantId, {
      amount,
      currency: 'BTC',
      paymentOptions: [{ asset: 'BTC', chain: 'BTC' }],
      expiresIn: 3600,
    });
    const o = await db()
      .selectFrom('checkout_options')
      .select(['address', 'amount_due'])
      .where('checkout_id', '=', c.id)
      .executeTakeFirstOrThrow();
    return { id: c.id, address: o.address, due: o.amount_due };
  }

  it('credits nothing from block 5, takes block 4 as replaced (its payment retracted), and settles once the chain links up', async () => {
    // Blocks 1–4, the payment of checkout A in block 4; the watcher scans them and keeps block 4.
    resultOf(
      await env.admin('PUT', '/chains/BTC/watch', {
        body: {
          kind: 'esplora',
          rpcUrl: started.url,
          networkId: started.networkId,
          confirmations: 2,
          pollIntervalMs: 250,
          startBlock: 1,
        },
      }),
    );
    // Checkouts keep the confirmations of their creation: made after the watch sets 2.
    const a = await checkout('0.01');
    const b = await checkout('0.00975');
    node.btc.mine(3);
    const paidA = node.btc.pay([{ to: a.address, sats: sats(a.due) }]);
    node.btc.mine(1);
    const watcher = env.services.chainWatch.watcher;
    expect(await watcher.round('BTC')).toMatchObject({ leader: true, from: 1, to: 4, reported: 1, caughtUp: true });
    const block4 = node.btc.blocks[4]!;
    expect(await kept()).toEqual([[4, block4.hash]]);
    expect(await status(a.id)).toBe('processing');

    // The node serves block 5 paying B, whose parent is not block 4, while still naming block 4 at height 4.
    const paidB = node.btc.pay([{ to: b.address, sats: sats(b.due) }]);
    const forged = node.btc.mineDetached();
    expect(forged.prev).not.toBe(block4.hash);
    expect(node.btc.blocks[4]!.hash).toBe(block4.hash);
    const before = await reorgs();
    expect(await watcher.round('BTC')).toMatchObject({ leader: true, reported: 0, retracted: 1, caughtUp: false });
    expect(await transfers(b.id)).toEqual([]);
    expect(await status(b.id)).toBe('open');
    // The reorganisation path: block 4 is no longer relied on, its payment is retracted, the scan goes back below it.
    expect(await reorgs()).toBe(before + 1);
    expect(await kept()).toEqual([]);
    expect(await cursor()).toBe(3);
    expect(await transfers(a.id)).toEqual([expect.objectContaining({ tx_hash: paidA.txid, retracted: 1 })]);
    expect(await status(a.id)).toBe('open');

    // The node still serves the same blocks: 4 and 5 read in one range do not link up. Nothing credited.
    await expect(watcher.round('BTC')).resolves.toMatchObject({ leader: false, reason: 'chain_moved' });
    expect(await transfers(b.id)).toEqual([]);

    // The node serves a chain that links up: B's payment in a block on top of block 4, then one more.
    node.btc.blocks.pop();
    node.btc.include(paidB);
    node.btc.mine(2);
    for (let i = 0; i < 5 && !(await watcher.round('BTC')).leader; i++);
    expect(await transfers(a.id)).toEqual([expect.objectContaining({ tx_hash: paidA.txid, retracted: 0 })]);
    expect(await transfers(b.id)).toEqual([
      expect.objectContaining({ tx_hash: paidB.txid, amount: b.due, retracted: 0 }),
    ]);
    expect(await status(a.id)).toBe('settled');
    expect(await status(b.id)).toBe('settled');
  });
});

/** The same on TRON: a block whose parentHash is not the kept block's id credits nothing. */
describe.each(DIALECTS)('TRON: a block that does not follow the kept one, on %s', (dialect: Dialect) => {
  const h = tronHarness({ asset: 'USDT' });
  let env: WatchEnv;

  beforeAll(async () => {
    const node = await h.start();
    env = await watchEnv(dialect);
    await watchTronStandIn(env, node);
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await h.stop();
  });

  it('credits nothing from it and takes the kept block as replaced', async () => {
    const db = env.services.store.db;
    const watcher = env.services.chainWatch.watcher;
    const c = await env.services.checkouts.create(env.merchantId, {
      amount: '25',
      currency: 'USDT',
      paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
      expiresIn: 3600,
    });
    const o = await db
      .selectFrom('checkout_options')
      .select(['address', 'amount_due'])
      .where('checkout_id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(await watcher.round('TRON')).toMatchObject({ leader: true, caughtUp: true });
    const keptTop = h.node.head;
    expect(
      (await db.selectFrom('chain_watch_blocks').select('hash').where('number', '=', keptTop.number).execute()).map(
        (b) => b.hash,
      ),
    ).toEqual([keptTop.id]);

    h.node.payTrc20(USDT_TRON, o.address, BigInt(Number(o.amount_due) * 1e6));
    const forged = h.node.produceDetached();
    expect(forged.parentHash).not.toBe(keptTop.id);
    expect(await watcher.round('TRON')).toMatchObject({ leader: true, reported: 0, caughtUp: false });
    const transfers = await db.selectFrom('transfers').select('id').where('checkout_id', '=', c.id).execute();
    expect(transfers).toEqual([]);
    expect(
      await db.selectFrom('chain_watch_blocks').select('number').where('number', '=', keptTop.number).execute(),
    ).toEqual([]);
    expect(
      Number((await db.selectFrom('chain_watches').select('cursor_block').executeTakeFirstOrThrow()).cursor_block),
    ).toBeLessThan(keptTop.number);
  });
});
