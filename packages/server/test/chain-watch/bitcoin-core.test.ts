import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ChainAdapter, ChainMoved } from '../../src/features/chain-watch/adapter.js';
import { btcTextToSats, satsToBtcText } from '../../src/features/chain-watch/adapters/bitcoin/amount.js';
import { BitcoinNodeError, bitcoinCoreAdapter } from '../../src/features/chain-watch/adapters/bitcoin/index.js';
import { ADDR, BTC, expectBrokenLinkBelow, loopbackFetch, sats } from './bitcoin-common.js';
import { BitcoinCoreStandIn } from './stand-ins/bitcoin-core.js';
import { recordedCoreTx, REGTEST_GENESIS } from './stand-ins/btc-chain.js';

const node = new BitcoinCoreStandIn();
const fetcher = loopbackFetch();
let url: string;
let apiKey: string;
let adapter: ChainAdapter;
const watched = (...a: string[]) => new Set(a.map((x) => adapter.normalizeAddress(x)));
const one = async (outputs: { to: string; sats: bigint }[], addresses: string[]) => {
  const tx = node.btc.pay(outputs);
  const [b] = node.btc.mine(1);
  return { tx, block: b!, got: await adapter.scan({ from: b!.height, to: b!.height }, watched(...addresses), BTC) };
};

beforeAll(async () => {
  const started = await node.start();
  url = started.url;
  apiKey = started.apiKey;
  adapter = bitcoinCoreAdapter({ url, apiKey, fetch: fetcher.fetchFn });
  node.btc.mine(3);
});
afterAll(async () => {
  fetcher.close();
  await node.stop();
});
beforeEach(() => {
  node.override = undefined;
});

describe('amounts: BTC text to satoshis, exactly', () => {
  it('reads every form a JSON number of BTC may take', () => {
    expect(btcTextToSats('0.10000000')).toBe(10_000_000n);
    expect(btcTextToSats('0.29')).toBe(29_000_000n); // 0.29 * 1e8 is 28999999.999999996 in floats
    expect(btcTextToSats('21000000.00000000')).toBe(2_100_000_000_000_000n);
    expect(btcTextToSats('20999999.99999999')).toBe(2_099_999_999_999_999n);
    expect(btcTextToSats('1e-8')).toBe(1n);
    expect(btcTextToSats('1.5E+1')).toBe(1_500_000_000n);
    expect(btcTextToSats('0')).toBe(0n);
    for (const bad of ['0.000000001', '21000000.00000001', '-1', '1.', '.5', '0x10', '1e-9', ''])
      expect(btcTextToSats(bad), bad).toBeUndefined();
    expect(satsToBtcText(1n)).toBe('0.00000001');
    expect(satsToBtcText(2_100_000_000_000_000n)).toBe('21000000.00000000');
  });
});

describe('bitcoin-core adapter against the Bitcoin Core stand-in', () => {
  it('names the network by its genesis hash (getblockhash 0) and follows the tip (getblockchaininfo)', async () => {
    expect(await adapter.networkId()).toBe(REGTEST_GENESIS);
    expect(await adapter.head()).toEqual({ number: node.btc.tip.height, hash: node.btc.tip.hash });
    expect(await adapter.blockHash(node.btc.tip.height + 1)).toBeNull();
    expect(node.requests).toContain('getblockhash [0]');
  });

  it('takes the credentials from the API key or the URL, and a refusal never quotes them', async () => {
    const inUrl = new URL(url);
    inUrl.username = node.user;
    inUrl.password = node.password;
    expect(await bitcoinCoreAdapter({ url: inUrl.href, fetch: fetcher.fetchFn }).networkId()).toBe(REGTEST_GENESIS);
    const wrong = bitcoinCoreAdapter({ url, apiKey: `${node.user}:wrong-secret`, fetch: fetcher.fetchFn });
    const err = await wrong.head().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BitcoinNodeError);
    expect(String(err)).toMatch(/HTTP 401: the node refused the credentials/);
    expect(String(err)).not.toContain('wrong-secret');
  });

  it('sees a P2WPKH payment with its vout and exact satoshis', async () => {
    const { tx, block, got } = await one([{ to: ADDR.p2wpkh, sats: 123_456_789n }], [ADDR.p2wpkh]);
    expect(got).toEqual([
      {
        txHash: tx.txid,
        index: 0,
        to: ADDR.p2wpkh,
        asset: 'BTC',
        baseUnits: 123_456_789n,
        block: { number: block.height, hash: block.hash, time: block.time },
      },
    ]);
  });

  it('reads 0.1 + 0.2 BTC to two deposit addresses as 10,000,000 + 20,000,000 satoshis (no float sums)', async () => {
    const { tx, got } = await one(
      [
        { to: ADDR.p2wpkh, sats: sats('0.1') },
        { to: ADDR.p2wpkh2, sats: sats('0.2') },
        { to: ADDR.p2tr, sats: sats('0.29') },
      ],
      [ADDR.p2wpkh, ADDR.p2wpkh2, ADDR.p2tr],
    );
    expect(got.map((o) => [o.txHash, o.index, o.to, o.baseUnits])).toEqual([
      [tx.txid, 0, ADDR.p2wpkh, 10_000_000n],
      [tx.txid, 1, ADDR.p2wpkh2, 20_000_000n],
      [tx.txid, 2, ADDR.p2tr, 29_000_000n],
    ]);
    // What a float reading would have made of the same text:
    expect(Math.round(0.29 * 1e8) === 29_000_000 && 0.29 * 1e8 !== 29_000_000).toBe(true);
  });

  it('reads 21 million BTC and one satoshi exactly, and base58 addresses as written', async () => {
    const { got } = await one(
      [
        { to: ADDR.p2pkh, sats: 2_100_000_000_000_000n },
        { to: ADDR.p2wpkh, sats: 1n },
      ],
      [ADDR.p2pkh, ADDR.p2wpkh.toUpperCase()],
    );
    expect(got.map((o) => [o.to, o.baseUnits])).toEqual([
      [ADDR.p2pkh, 2_100_000_000_000_000n],
      [ADDR.p2wpkh, 1n],
    ]);
  });

  it('reads the recorded coinbase as Core wrote it (25.00000000 BTC, an OP_RETURN without address)', async () => {
    node.btc.include(recordedCoreTx());
    const [b] = node.btc.mine(1);
    const got = await adapter.scan(
      { from: b!.height, to: b!.height },
      watched('bcrt1qv70cepxj2d2dhrmrcdprlu4sakuc98zltd0wuf'),
      BTC,
    );
    const recorded = got.filter((o) => o.txHash === '89bd9f41651cbdb9d905981600387af50841d8ac6ee286dc87a756fde56fe8c5');
    expect(recorded.map((o) => [o.index, o.baseUnits])).toEqual([[0, 2_500_000_000n]]);
  });

  it('reads the older `addresses: [one]` form of Core before version 22', async () => {
    const tx = node.btc.pay([{ to: ADDR.p2wpkh2, sats: 555n }]);
    const [b] = node.btc.mine(1);
    node.override = ({ body }) => {
      const answer = node.answer(body);
      return body.includes('"getblock"')
        ? {
            ...answer,
            body: answer.body.replace(`"address":"${ADDR.p2wpkh2}"`, `"reqSigs":1,"addresses":["${ADDR.p2wpkh2}"]`),
          }
        : answer;
    };
    const got = await adapter.scan({ from: b!.height, to: b!.height }, watched(ADDR.p2wpkh2), BTC);
    expect(got.map((o) => [o.txHash, o.baseUnits])).toEqual([[tx.txid, 555n]]);
  });

  it('throws when a block does not follow the one before it in the range', async () => {
    node.btc.mine(2);
    const top = node.btc.tip;
    node.override = ({ body }) => {
      const answer = node.answer(body);
      return body.includes('"getblock"') && body.includes(top.hash)
        ? {
            ...answer,
            body: answer.body.replace(`"previousblockhash":"${top.prev}"`, `"previousblockhash":"${'ef'.repeat(32)}"`),
          }
        : answer;
    };
    const err = await adapter
      .scan({ from: top.height - 1, to: top.height }, watched(ADDR.p2wpkh), BTC)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChainMoved);
  });

  it('throws BrokenLink when the first block of the range does not follow the block kept below it', async () => {
    await expectBrokenLinkBelow(node, adapter);
  });

  it('after a reorganisation the payment is gone from the node’s chain', async () => {
    const { block } = await one([{ to: ADDR.p2wpkh2, sats: 42n }], [ADDR.p2wpkh2]);
    node.btc.reorg(1);
    expect(await adapter.blockHash(block.height)).not.toBe(block.hash);
    expect(await adapter.scan({ from: block.height, to: block.height + 1 }, watched(ADDR.p2wpkh2), BTC)).toEqual([]);
  });
});

describe('malformed Bitcoin Core answers are errors that say what was wrong', () => {
  const rewrite = (method: string, from: RegExp, to: string) => (body: string) => {
    const answer = node.answer(body);
    return body.includes(`"${method}"`) ? { ...answer, body: answer.body.replace(from, to) } : answer;
  };
  const cases: [string, (body: string) => { status: number; body: string }, RegExp][] = [
    [
      'an amount finer than a satoshi',
      rewrite('getblock', /"value":0\.10000000/, '"value":0.100000001'),
      /value: expected BTC with at most 8 decimals/,
    ],
    ['a negative amount', rewrite('getblock', /"value":0\.10000000/, '"value":-0.1'), /value: expected BTC/],
    ['an amount as a string', rewrite('getblock', /"value":0\.10000000/, '"value":"0.1"'), /value: expected BTC/],
    ['a vout out of order', rewrite('getblock', /"n":0/, '"n":7'), /n is 7/],
    [
      'a block without height',
      rewrite('getblock', /"height":\d+,/, ''),
      /getblock [0-9a-f]{64} height: expected a block height/,
    ],
    ['an answer that is not JSON', () => ({ status: 200, body: 'Loading block index…' }), /answer is not JSON/],
    ['an answer without result', () => ({ status: 200, body: '{"error":null,"id":1}' }), /answer has no result/],
    [
      'an RPC error',
      () => ({ status: 500, body: '{"result":null,"error":{"code":-28,"message":"Loading block index..."},"id":1}' }),
      /error -28: Loading block index/,
    ],
  ];
  for (const [name, answer, message] of cases)
    it(name, async () => {
      node.btc.pay([{ to: ADDR.p2wpkh, sats: sats('0.1') }]);
      const [b] = node.btc.mine(1);
      node.override = ({ body }) => answer(body);
      const err = await adapter
        .scan({ from: b!.height, to: b!.height }, watched(ADDR.p2wpkh), BTC)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BitcoinNodeError);
      expect(String(err)).toMatch(message);
    });

  it('an answer past the size bound', async () => {
    const bounded = bitcoinCoreAdapter({ url, apiKey, fetch: fetcher.fetchFn, maxAnswerBytes: 2048 });
    node.btc.mine(1, 30);
    const h = node.btc.tip.height;
    await expect(bounded.scan({ from: h, to: h }, watched(ADDR.p2wpkh), BTC)).rejects.toThrow(
      /answer larger than 2048 bytes/,
    );
  });
});
