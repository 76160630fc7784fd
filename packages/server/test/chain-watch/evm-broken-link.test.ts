import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokenLink, type ChainAdapter, type WatchedAsset } from '../../src/features/chain-watch/adapter.js';
import { evmAdapter } from '../../src/features/chain-watch/adapters/evm/index.js';
import { anvilBinary, startAnvil, type Anvil } from '../evm/anvil.js';
import { chainDriver, type ChainDriver } from '../evm/env.js';
import { loopbackFetch } from './bitcoin-common.js';

/**
 * The EVM adapter checks that a range follows the block the watcher kept below it: from the
 * blocks it fetches whole when the native coin is watched, from one header when only tokens are
 * (logs carry no parent hash).
 */
const suite = anvilBinary === null ? describe.skip : describe;
const DEPOSIT = '0x00000000000000000000000000000000000d3b05';

suite('evm-rpc adapter: the range follows the kept block below it', () => {
  let anvil: Anvil;
  let chain: ChainDriver;
  let adapter: ChainAdapter;
  let token: `0x${string}`;
  const fetcher = loopbackFetch();

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = chainDriver(anvil);
    token = await chain.deployToken(6);
    adapter = evmAdapter({ url: anvil.url, fetch: fetcher.fetchFn, checkHost: async () => undefined, timeoutMs: 5000 });
  }, 60_000);

  afterAll(async () => {
    adapter?.close?.();
    fetcher.close();
    await anvil?.stop();
  });

  async function paidRange(pay: () => Promise<unknown>) {
    await pay();
    const n = await chain.head();
    const below = await chain.pub.getBlock({ blockNumber: BigInt(n - 1) });
    return { range: { from: n, to: n }, kept: { number: n - 1, hash: below.hash as string } };
  }

  const cases: [string, () => Promise<unknown>, WatchedAsset[]][] = [
    [
      'native coin (blocks fetched whole)',
      () => chain.payEth(DEPOSIT, '0.5'),
      [{ asset: 'ETH', contract: null, decimals: 18 }],
    ],
    ['tokens only (one header)', () => chain.payToken(token, DEPOSIT, '7'), []],
  ];

  for (const [name, pay, fixed] of cases) {
    it(`${name}: another hash kept below is BrokenLink; the real one lets the payment through`, async () => {
      const assets = fixed.length > 0 ? fixed : [{ asset: 'USDT', contract: token.toLowerCase(), decimals: 6 }];
      const { range, kept } = await paidRange(pay);
      const watched = new Set([DEPOSIT]);
      const err = await adapter
        .scan({ ...range, below: { number: kept.number, hash: `0x${'ab'.repeat(32)}` } }, watched, assets)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BrokenLink);
      expect(err).toMatchObject({ below: kept.number, parent: kept.hash });
      const got = await adapter.scan({ ...range, below: kept }, watched, assets);
      expect(got).toHaveLength(1);
      expect(got[0]!.block.number).toBe(range.from);
    });
  }
});
