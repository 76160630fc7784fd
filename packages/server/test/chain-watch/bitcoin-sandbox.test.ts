import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services.js';
import { watchEnv, type WatchEnv } from '../evm/env.js';
import { waitFor } from '../helpers.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { sats } from './bitcoin-common.js';
import { BitcoinCoreStandIn } from './stand-ins/bitcoin-core.js';
import { EsploraStandIn } from './stand-ins/esplora.js';

/**
 * A sandbox server pointed at the Esplora stand-in through its admin API, with the watcher's own
 * loop running (no rounds driven by hand): BTC checkouts settle by themselves, one transaction
 * paying two checkouts pays both, and a reorganised payment is retracted.
 */
const node = new EsploraStandIn();
let env: WatchEnv;

async function btcCheckout(services: Services, merchantId: string, amount: string) {
  const c = await services.checkouts.create(merchantId, {
    amount,
    currency: 'BTC',
    paymentOptions: [{ asset: 'BTC', chain: 'BTC' }],
    expiresIn: 3600,
  });
  const option = await services.store.db
    .selectFrom('checkout_options')
    .select(['address', 'amount_due'])
    .where('checkout_id', '=', c.id)
    .executeTakeFirstOrThrow();
  return { id: c.id, address: option.address, due: option.amount_due, dueSats: sats(option.amount_due) };
}

const status = async (id: string) =>
  (await env.services.store.db.selectFrom('checkouts').select('status').where('id', '=', id).executeTakeFirstOrThrow())
    .status;
const transfers = (id: string) =>
  env.services.store.db
    .selectFrom('transfers')
    .select(['tx_hash', 'log_index', 'amount', 'confirmations', 'retracted'])
    .where('checkout_id', '=', id)
    .execute();
const reaches = (id: string, want: string) =>
  waitFor(async () => (await status(id)) === want, `checkout ${id} ${want}`, 15_000);

beforeAll(async () => {
  const started = await node.start();
  env = await watchEnv('sqlite');
  const w = resultOf(
    await env.admin('PUT', '/chains/BTC/watch', {
      body: {
        kind: 'esplora',
        rpcUrl: started.url,
        networkId: started.networkId,
        confirmations: 2,
        pollIntervalMs: 250,
      },
    }),
  );
  expect(w).toMatchObject({ chain: 'BTC', kind: 'esplora', confirmations: 2 });
  env.services.chainWatch.watcher.start();
  await waitFor(() => env.services.chainWatch.watcher.live('BTC')?.state === 'watching', 'the BTC watch', 15_000);
}, 60_000);

afterAll(async () => {
  await env?.services.chainWatch.watcher.stop();
  await env?.close();
  await node.stop();
});

describe('a sandbox server watching BTC through Esplora', () => {
  it('settles two checkouts paid by one transaction, exactly, at 2 confirmations', async () => {
    const a = await btcCheckout(env.services, env.merchantId, '0.1');
    const b = await btcCheckout(env.services, env.merchantId, '0.2');
    const tx = node.btc.pay([
      { to: a.address, sats: a.dueSats },
      { to: b.address, sats: b.dueSats },
    ]);
    node.btc.mine(1);
    await reaches(a.id, 'processing');
    await reaches(b.id, 'processing');
    node.btc.mine(1);
    await reaches(a.id, 'settled');
    await reaches(b.id, 'settled');
    expect(await transfers(a.id)).toEqual([
      expect.objectContaining({ tx_hash: tx.txid, log_index: 0, amount: a.due, retracted: 0 }),
    ]);
    expect(await transfers(b.id)).toEqual([
      expect.objectContaining({ tx_hash: tx.txid, log_index: 1, amount: b.due, retracted: 0 }),
    ]);
  });

  it('a node that claims a higher tip than it has never raises confirmations', async () => {
    const c = await btcCheckout(env.services, env.merchantId, '0.03');
    node.btc.pay([{ to: c.address, sats: c.dueSats }]);
    node.btc.mine(1);
    await reaches(c.id, 'processing');
    const claimed = node.btc.tip.height + 5;
    node.override = ({ path }) => (path === '/blocks/tip/height' ? { status: 200, body: String(claimed) } : undefined);
    try {
      // Three rounds asked the lying tip (and found no block there): the payment stays at 1 confirmation.
      const asked = () => node.requests.filter((r) => r === `GET /block-height/${claimed}`).length;
      await waitFor(() => asked() >= 3, 'three rounds against the lying tip', 15_000);
      expect(await status(c.id)).toBe('processing');
      expect(await transfers(c.id)).toEqual([expect.objectContaining({ confirmations: 1, retracted: 0 })]);
    } finally {
      node.override = undefined;
    }
    node.btc.mine(1);
    await reaches(c.id, 'settled');
  });

  it('retracts a payment whose block a longer branch replaced (processing → open)', async () => {
    const c = await btcCheckout(env.services, env.merchantId, '0.05');
    node.btc.pay([{ to: c.address, sats: c.dueSats }]);
    node.btc.mine(1);
    await reaches(c.id, 'processing');
    node.btc.reorg(1);
    await reaches(c.id, 'open');
    expect(await transfers(c.id)).toEqual([expect.objectContaining({ retracted: 1 })]);
  });
});

describe('a sandbox server watching BTC through Bitcoin Core', () => {
  const core = new BitcoinCoreStandIn();
  let cenv: WatchEnv;
  afterAll(async () => {
    await cenv?.services.chainWatch.watcher.stop();
    await cenv?.close();
    await core.stop();
  });

  it('wrong RPC credentials: the watch shows why, never the password; the right ones settle a payment', async () => {
    const node = await core.start();
    cenv = await watchEnv('sqlite');
    const put = (body: Record<string, unknown>) => cenv.admin('PUT', '/chains/BTC/watch', { body });
    resultOf(
      await put({
        kind: 'bitcoin-core',
        rpcUrl: node.url,
        apiKey: `${core.user}:Wr0ng-Secret-Pass`,
        networkId: node.networkId,
        confirmations: 2,
        pollIntervalMs: 250,
      }),
    );
    const watcher = cenv.services.chainWatch.watcher;
    watcher.start();
    await waitFor(() => watcher.live('BTC')?.state === 'error', 'the refused round', 15_000);
    const watch = resultOf(await cenv.admin('GET', '/chains/BTC/watch'));
    expect(watch.status.lastError).toMatch(/refused the credentials/);
    expect(watch.apiKeySet).toBe(true);
    expect(JSON.stringify(watch)).not.toContain('Wr0ng-Secret-Pass');

    resultOf(await put({ apiKey: node.apiKey }));
    await waitFor(() => watcher.live('BTC')?.state === 'watching', 'the recovered round', 20_000);
    const c = await btcCheckout(cenv.services, cenv.merchantId, '0.07');
    const tx = core.btc.pay([{ to: c.address, sats: c.dueSats }]);
    core.btc.mine(2);
    await waitFor(
      async () =>
        (
          await cenv.services.store.db
            .selectFrom('checkouts')
            .select('status')
            .where('id', '=', c.id)
            .executeTakeFirstOrThrow()
        ).status === 'settled',
      'the Core-watched checkout settled',
      15_000,
    );
    const t = await cenv.services.store.db
      .selectFrom('transfers')
      .select(['tx_hash', 'amount'])
      .where('checkout_id', '=', c.id)
      .execute();
    expect(t).toEqual([{ tx_hash: tx.txid, amount: c.due }]);
  }, 60_000);
});
