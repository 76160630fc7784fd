import { expect } from 'vitest';
import { BrokenLink, type ChainAdapter, type WatchedAsset } from '../../src/features/chain-watch/adapter.js';
import { guardedFetch } from '../../src/outbound/fetch.js';
import type { BitcoinStandIn } from './stand-ins/bitcoin-stand-in.js';

/** BTC as a watch follows it: the native coin in satoshis. */
export const BTC: WatchedAsset[] = [{ asset: 'BTC', contract: null, decimals: 8 }];

/** Real addresses of each kind (regtest bech32, mainnet base58), as hostpay might hand them out. */
export const ADDR = {
  p2wpkh: 'bcrt1qc0y45s8gu4p47ypjyjkwzmzc54t43a2dgqrhpf',
  p2wpkh2: 'bcrt1qqytqc2qvg2wtxjw9cd7hsmhdkkmml5lzqc04tk',
  p2tr: 'bcrt1p5kaqsuted66fldx256lh3en4h9z4uttxuagkwepqlqup6hw639gswkh8l6',
  p2pkh: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  /** The P2SH output of the recorded mainnet transaction (fixtures/esplora-tx-763239.json). */
  p2shRecorded: '3FQCw7oaNiterPwM5wheiTaKVaDWPbHgKw',
  p2wpkhRecorded: 'bc1qf27trwp5dq5lp6rwgxt7aedpndqkrvyx7rtfz5',
};

/** BTC decimal text → satoshis, for the test's own expectations (exact, no floats). */
export const sats = (btc: string): bigint => {
  const [i = '0', f = ''] = btc.split('.');
  return BigInt(i) * 100_000_000n + BigInt(f.padEnd(8, '0'));
};

/**
 * The server's guarded outbound fetch (every connection through an address check; loopback
 * allowed as on a sandbox server): the adapters are tested over the fetch they get in production.
 */
export function loopbackFetch(maxAnswerBytes = 8 * 1024 * 1024) {
  return guardedFetch({
    check: async (host) => {
      if (host !== '127.0.0.1') throw new Error(`refused ${host}`);
      return [{ address: '127.0.0.1', family: 4 }];
    },
    maxSockets: 4,
    maxAnswerBytes,
    what: 'answer',
  });
}

/**
 * Either Bitcoin adapter throws BrokenLink when the first block of a range does not follow the
 * block kept below it; given the block really kept there, it reads the range's payment.
 */
export async function expectBrokenLinkBelow(node: BitcoinStandIn, adapter: ChainAdapter): Promise<void> {
  const watched = new Set([adapter.normalizeAddress(ADDR.p2wpkh2)]);
  node.btc.pay([{ to: ADDR.p2wpkh2, sats: 4242n }]);
  const [first] = node.btc.mine(2);
  const range = { from: first!.height, to: first!.height + 1 };
  const keptBelow = node.btc.blocks[first!.height - 1]!;
  const err = await adapter
    .scan({ ...range, below: { number: keptBelow.height, hash: 'ef'.repeat(32) } }, watched, BTC)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(BrokenLink);
  expect(err).toMatchObject({ below: keptBelow.height, parent: keptBelow.hash });
  // The block really kept there: the range follows it and its payment is seen.
  const got = await adapter.scan({ ...range, below: { number: keptBelow.height, hash: keptBelow.hash } }, watched, BTC);
  expect(got.map((o) => o.baseUnits)).toEqual([4242n]);
}
