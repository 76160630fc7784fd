import { Decimal } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services.js';
import { watchEnv, type WatchEnv } from '../evm/env.js';
import { checkoutState, eventTypes } from '../evm/common.js';
import { waitFor } from '../helpers.js';
import { tronHarness, watchTronStandIn } from './stand-ins/tron-harness.js';
import { render } from './stand-ins/tron-node.js';

/**
 * A sandbox server pointed at the java-tron stand-in, its watcher loop running by itself (no
 * rounds driven by hand): a USDT-on-TRON checkout settles at TRON's 19 confirmations, and a
 * payment whose block a reorganisation drops is retracted.
 */
const h = tronHarness({ asset: 'USDT' });

async function usdtCheckout(services: Services, merchantId: string) {
  const c = await services.checkouts.create(merchantId, {
    amount: '25',
    currency: 'USDT',
    paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
    expiresIn: 3600,
  });
  const option = await services.store.db
    .selectFrom('checkout_options')
    .selectAll()
    .where('checkout_id', '=', c.id)
    .executeTakeFirstOrThrow();
  const due = new Decimal(option.amount_due);
  return {
    id: c.id,
    address: option.address,
    due,
    net: new Decimal(option.net_amount),
    baseUnits: BigInt(due.times(1e6).toFixed(0)),
  };
}

async function tronBalance(services: Services, merchantId: string): Promise<Decimal> {
  const row = await services.store.db
    .selectFrom('wallets as w')
    .innerJoin('assets as a', 'a.id', 'w.asset_id')
    .innerJoin('chains as c', 'c.id', 'w.chain_id')
    .select('w.amount')
    .where('w.merchant_id', '=', merchantId)
    .where('a.symbol', '=', 'USDT')
    .where('c.symbol', '=', 'TRON')
    .executeTakeFirst();
  return new Decimal(row?.amount ?? 0);
}

describe('a sandbox server watching TRON through the stand-in, by itself', () => {
  let env: WatchEnv;

  beforeAll(async () => {
    const node = await h.start();
    env = await watchEnv('sqlite', { reloadMs: 100 });
    // The catalog's TRON depth (the demo seeds 1 for instant demos): solidified blocks.
    const watch = await watchTronStandIn(env, node, 19);
    expect(watch).toMatchObject({ chain: 'TRON', kind: 'tron-http', confirmations: 19 });
    env.services.chainWatch.watcher.start();
  }, 60_000);

  afterAll(async () => {
    await env?.services.chainWatch.watcher.stop();
    await env?.close();
    await h.stop();
  });

  const transfers = async (id: string) => (await checkoutState(env.services, id)).transfers;

  it('a USDT payment: processing at 1 confirmation, still at 18, settled at 19 with the wallet credited', async () => {
    const c = await usdtCheckout(env.services, env.merchantId);
    const before = await tronBalance(env.services, env.merchantId);
    const { txHash } = await h.pay(c.address, c.baseUnits);
    await h.mine(1);
    await waitFor(
      async () => (await checkoutState(env.services, c.id)).status === 'processing',
      'the payment seen',
      15_000,
    );
    const seen = await transfers(c.id);
    expect(seen).toEqual([expect.objectContaining({ tx_hash: txHash, log_index: 0, retracted: 0 })]);
    expect(new Decimal(seen[0]?.amount ?? '0').equals(c.due)).toBe(true);
    await h.mine(17);
    await waitFor(async () => (await transfers(c.id))[0]?.confirmations === 18, '18 confirmations', 15_000);
    expect((await checkoutState(env.services, c.id)).status).toBe('processing');
    expect((await tronBalance(env.services, env.merchantId)).equals(before)).toBe(true);
    await h.mine(1);
    await waitFor(async () => (await checkoutState(env.services, c.id)).status === 'settled', 'the settlement', 15_000);
    const s = await checkoutState(env.services, c.id);
    expect(s.timeline).toEqual(['open', 'processing', 'settled']);
    expect(s.transfers[0]?.confirmations).toBe(19);
    expect((await tronBalance(env.services, env.merchantId)).minus(before).equals(c.net)).toBe(true);
    expect(await eventTypes(env.services, c.id)).toEqual(['checkout.processing', 'checkout.settled']);
  }, 60_000);

  it('a reorganisation that drops the payment block: the payment is retracted, the checkout open again', async () => {
    const c = await usdtCheckout(env.services, env.merchantId);
    await h.pay(c.address, c.baseUnits);
    await h.mine(1);
    await waitFor(
      async () => (await checkoutState(env.services, c.id)).status === 'processing',
      'the payment seen',
      15_000,
    );
    await h.reorg(1);
    await waitFor(async () => (await checkoutState(env.services, c.id)).status === 'open', 'the retraction', 15_000);
    const s = await checkoutState(env.services, c.id);
    expect(s.transfers).toEqual([expect.objectContaining({ retracted: 1 })]);
    expect(s.timeline).toEqual(['open', 'processing', 'open:payment_retracted']);
  }, 60_000);

  it('a node that lies about its head raises no confirmation: the rounds fail until it tells the truth', async () => {
    const c = await usdtCheckout(env.services, env.merchantId);
    await h.pay(c.address, c.baseUnits);
    await h.mine(1);
    await waitFor(async () => (await transfers(c.id))[0]?.confirmations === 1, 'the payment seen', 15_000);
    // A head 30 blocks ahead of the blocks it has, spelled consistently (id prefixed by the height).
    const head = h.node.head;
    const fake = h.node.blockJson(head, true) as { blockID: string; block_header: { raw_data: { number: number } } };
    const n = head.number + 30;
    fake.blockID = n.toString(16).padStart(16, '0') + fake.blockID.slice(16);
    fake.block_header.raw_data.number = n;
    h.node.answerOverrides.set('/wallet/getnowblock', { text: render(fake) });
    const watcher = env.services.chainWatch.watcher;
    await waitFor(() => watcher.live('TRON')?.state === 'error', 'a failed round', 15_000);
    expect(watcher.live('TRON')?.lastError).toMatch(/has no block/);
    expect(await transfers(c.id)).toEqual([expect.objectContaining({ confirmations: 1 })]);
    expect((await checkoutState(env.services, c.id)).status).toBe('processing');
    h.node.answerOverrides.clear();
    await h.mine(18);
    await waitFor(async () => (await checkoutState(env.services, c.id)).status === 'settled', 'the settlement', 90_000);
  }, 120_000);
});
