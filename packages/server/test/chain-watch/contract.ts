import { Decimal } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../src/services.js';
import { resultOf } from '../http-helpers/admin-fixture.js';
import { postgresAvailable, type Dialect } from '../helpers.js';
import { watchEnv, type WatchEnv } from '../evm/env.js';
import type { ChainHarness } from './harness.js';

export interface ContractOptions {
  /** Extra fields of the watch (PUT /admin/v1/chains/{chain}/watch), e.g. an EVM token list. */
  watchBody?: () => Record<string, unknown>;
  /** The checkout amount in the asset (default 0.5): above the demo fees. */
  amount?: string;
  /** The asset's decimals on the chain (default: the catalog's precision of the asset). */
  decimals?: number;
  /** Run the two-instances case on PostgreSQL (default: where PostgreSQL answers). */
  postgres?: boolean;
  /** Skip every case, with the reason printed (say, no node binary for this platform). */
  skip?: string | undefined;
}

/** A checkout paid in the harness's asset on its chain: id, deposit address, amount due in base units. */
async function checkout(services: Services, merchantId: string, h: ChainHarness, o: ContractOptions) {
  const c = await services.checkouts.create(merchantId, {
    amount: o.amount ?? '0.5',
    currency: h.asset,
    paymentOptions: [{ asset: h.asset, chain: h.chain }],
    expiresIn: 3600,
  });
  const option = await services.store.db
    .selectFrom('checkout_options as o')
    .innerJoin('assets as a', 'a.id', 'o.asset_id')
    .select(['o.address', 'o.amount_due', 'a.decimals'])
    .where('o.checkout_id', '=', c.id)
    .executeTakeFirstOrThrow();
  const decimals = o.decimals ?? option.decimals;
  const units = new Decimal(option.amount_due).times(new Decimal(10).pow(decimals));
  return { id: c.id, address: option.address, baseUnits: BigInt(units.toFixed(0)) };
}

async function state(services: Services, id: string) {
  const row = await services.store.db
    .selectFrom('checkouts')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const transfers = await services.store.db
    .selectFrom('transfers')
    .select(['tx_hash', 'confirmations', 'retracted'])
    .where('checkout_id', '=', id)
    .execute();
  return { status: row.status, transfers };
}

/** Rounds until the watcher has scanned to the node's head (a bounded number). */
async function catchUp(services: Services, chain: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const r = await services.chainWatch.watcher.round(chain);
    if (r.leader && r.caughtUp) return;
  }
  throw new Error(`the ${chain} watcher did not catch up in 50 rounds`);
}

async function watch(
  env: WatchEnv,
  h: ChainHarness,
  node: { url: string; networkId: string; apiKey?: string },
  o: ContractOptions,
) {
  return resultOf(
    await env.admin('PUT', `/chains/${h.chain}/watch`, {
      body: {
        kind: h.kind,
        rpcUrl: node.url,
        ...(node.apiKey === undefined ? {} : { apiKey: node.apiKey }),
        networkId: node.networkId,
        confirmations: 2,
        pollIntervalMs: 250,
        ...o.watchBody?.(),
      },
    }),
  );
}

/**
 * The cases every chain adapter passes, whatever the chain: a payment is seen, confirmed at the
 * catalog depth (2 here), retracted when a reorganisation drops its block, not reported twice
 * after a restart, and watched by one instance at a time (two instances over one PostgreSQL; two
 * watchers over one SQLite file). Few blocks, rounds driven by hand.
 */
export function chainContract(h: ChainHarness, opts: ContractOptions = {}): void {
  const suite = opts.skip === undefined ? describe : describe.skip;
  if (opts.skip !== undefined) console.warn(`[hostpay tests] ${h.kind} contract skipped: ${opts.skip}`);

  suite(`chain-watch contract: ${h.kind} (${h.chain} ${h.asset}), SQLite`, () => {
    let env: WatchEnv;
    let node: Awaited<ReturnType<ChainHarness['start']>>;

    beforeAll(async () => {
      node = await h.start();
      env = await watchEnv('sqlite');
      const w = await watch(env, h, node, opts);
      expect(w).toMatchObject({ chain: h.chain, kind: h.kind, confirmations: 2 });
      await catchUp(env.services, h.chain);
    }, 60_000);

    afterAll(async () => {
      await env?.close();
      await h.stop();
    });

    it('a node of another network is refused: nothing is scanned', async () => {
      const bad = resultOf(
        await env.admin('PUT', `/chains/${h.chain}/watch`, { body: { networkId: `${node.networkId}0` } }),
      );
      expect(bad).toMatchObject({ networkId: `${node.networkId}0` });
      await expect(env.services.chainWatch.watcher.round(h.chain)).rejects.toThrow(/network/);
      resultOf(await env.admin('PUT', `/chains/${h.chain}/watch`, { body: { networkId: node.networkId } }));
      await catchUp(env.services, h.chain);
    });

    it('a payment is seen (1 confirmation: processing), then confirmed at the catalog depth (settled)', async () => {
      const c = await checkout(env.services, env.merchantId, h, opts);
      const { txHash } = await h.pay(c.address, c.baseUnits);
      await h.mine(1);
      await catchUp(env.services, h.chain);
      let s = await state(env.services, c.id);
      expect(s.status).toBe('processing');
      expect(s.transfers).toEqual([expect.objectContaining({ tx_hash: txHash, confirmations: 1, retracted: 0 })]);
      await h.mine(1);
      await catchUp(env.services, h.chain);
      s = await state(env.services, c.id);
      expect(s.status).toBe('settled');
      expect(s.transfers).toEqual([expect.objectContaining({ confirmations: 2, retracted: 0 })]);
    });

    it('a reorganisation that drops the payment block retracts the payment (processing → open)', async () => {
      const c = await checkout(env.services, env.merchantId, h, opts);
      await h.pay(c.address, c.baseUnits);
      await h.mine(1);
      await catchUp(env.services, h.chain);
      expect((await state(env.services, c.id)).status).toBe('processing');
      await h.reorg(1);
      await catchUp(env.services, h.chain);
      const s = await state(env.services, c.id);
      expect(s.status).toBe('open');
      expect(s.transfers).toEqual([expect.objectContaining({ retracted: 1 })]);
    });

    it('the cursor survives a restart: another instance over the same store reports nothing twice', async () => {
      const c = await checkout(env.services, env.merchantId, h, opts);
      await h.pay(c.address, c.baseUnits);
      await h.mine(1);
      await catchUp(env.services, h.chain);
      // The watcher stops (its lease released); a new process over the same store goes on.
      await env.services.chainWatch.watcher.stop();
      const next = await env.another();
      const r = await next.chainWatch.watcher.round(h.chain);
      expect(r).toMatchObject({ leader: true, reported: 0 });
      await h.mine(1);
      await catchUp(next, h.chain);
      const s = await state(env.services, c.id);
      expect(s.status).toBe('settled');
      expect(s.transfers).toHaveLength(1);
      await next.chainWatch.watcher.stop();
    });

    it('two watchers over one SQLite store: one watches, the other stands by', async () => {
      const a = env.services.chainWatch.spawnWatcher();
      const b = env.services.chainWatch.spawnWatcher();
      const [ra, rb] = await Promise.all([a.round(h.chain), b.round(h.chain)]);
      expect([ra.leader, rb.leader].filter(Boolean)).toHaveLength(1);
      await a.stop();
      await b.stop();
    });
  });

  const pg = (opts.postgres ?? postgresAvailable) && opts.skip === undefined ? describe : describe.skip;
  pg(`chain-watch contract: ${h.kind} (${h.chain} ${h.asset}), two instances on PostgreSQL`, () => {
    let env: WatchEnv;
    let second: Services;

    beforeAll(async () => {
      const node = await h.start();
      env = await watchEnv('postgres' as Dialect);
      second = await env.another();
      await watch(env, h, node, opts);
    }, 60_000);

    afterAll(async () => {
      await env?.close();
      await h.stop();
    });

    it('rounds at the same time: one leader per round, the payment reported once', async () => {
      const a = env.services.chainWatch.watcher;
      const b = second.chainWatch.watcher;
      const c = await checkout(env.services, env.merchantId, h, opts);
      for (let i = 0; i < 3; i++) {
        if (i === 1) {
          await h.pay(c.address, c.baseUnits);
          await h.mine(1);
        }
        if (i === 2) await h.mine(1);
        const [ra, rb] = await Promise.all([a.round(h.chain), b.round(h.chain)]);
        expect([ra.leader, rb.leader].filter(Boolean)).toHaveLength(1);
      }
      const s = await state(env.services, c.id);
      expect(s.status).toBe('settled');
      expect(s.transfers).toHaveLength(1);
    });
  });
}
