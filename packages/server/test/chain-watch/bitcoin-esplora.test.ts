import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BrokenLink, type ChainAdapter, ChainMoved } from '../../src/features/chain-watch/adapter.js';
import { BitcoinNodeError, esploraAdapter } from '../../src/features/chain-watch/adapters/bitcoin/index.js';
import { ADDR, BTC, loopbackFetch, sats } from './bitcoin-common.js';
import { recordedEsploraTx, REGTEST_GENESIS } from './stand-ins/btc-chain.js';
import { EsploraStandIn } from './stand-ins/esplora.js';

const node = new EsploraStandIn();
const fetcher = loopbackFetch();
let url: string;
let adapter: ChainAdapter;
const watched = (...a: string[]) => new Set(a.map((x) => adapter.normalizeAddress(x)));

beforeAll(async () => {
  node.apiKey = 'esplora-key-0123456789';
  ({ url } = await node.start());
  adapter = esploraAdapter({ url, apiKey: node.apiKey, fetch: fetcher.fetchFn });
  node.btc.mine(3);
});
afterAll(async () => {
  fetcher.close();
  await node.stop();
});
beforeEach(() => {
  node.override = undefined;
});

describe('esplora adapter against the Esplora stand-in', () => {
  it('names the network by its genesis hash and follows the tip', async () => {
    expect(await adapter.networkId()).toBe(REGTEST_GENESIS);
    const tip = node.btc.tip;
    expect(await adapter.head()).toEqual({ number: tip.height, hash: tip.hash });
    expect(await adapter.blockHash(tip.height)).toBe(tip.hash);
    expect(await adapter.blockHash(tip.height + 1)).toBeNull();
    expect(adapter.family).toBe('btc');
  });

  it('sends the API key as a bearer token, and fails clearly without it', async () => {
    const keyless = esploraAdapter({ url, fetch: fetcher.fetchFn });
    await expect(keyless.head()).rejects.toThrow(/esplora GET \/blocks\/tip\/height: HTTP 401/);
  });

  it('keeps a query-string key of the base URL on every request', async () => {
    const withQuery = esploraAdapter({ url: `${url}/?key=q-secret`, apiKey: node.apiKey, fetch: fetcher.fetchFn });
    expect((await withQuery.head()).number).toBe(node.btc.tip.height);
    expect(node.lastQuery).toBe('?key=q-secret');
  });

  it('sees a P2WPKH payment with its output index, block and exact satoshis', async () => {
    const tx = node.btc.pay([{ to: ADDR.p2wpkh, sats: 123_456_789n }]);
    const [b] = node.btc.mine(1);
    const got = await adapter.scan({ from: b!.height, to: b!.height }, watched(ADDR.p2wpkh), BTC);
    expect(got).toEqual([
      {
        txHash: tx.txid,
        index: 0,
        to: ADDR.p2wpkh,
        asset: 'BTC',
        baseUnits: 123_456_789n,
        block: { number: b!.height, hash: b!.hash, time: b!.time },
      },
    ]);
  });

  it('sees each output of a multi-output transaction paying two deposit addresses (0.1 + 0.2 BTC exactly)', async () => {
    const tx = node.btc.pay([
      { to: ADDR.p2wpkh, sats: sats('0.1') },
      { to: ADDR.p2wpkh2, sats: sats('0.2') },
    ]);
    const [b] = node.btc.mine(1);
    const got = await adapter.scan({ from: b!.height, to: b!.height }, watched(ADDR.p2wpkh, ADDR.p2wpkh2), BTC);
    expect(got.map((o) => [o.txHash, o.index, o.to, o.baseUnits])).toEqual([
      [tx.txid, 0, ADDR.p2wpkh, 10_000_000n],
      [tx.txid, 1, ADDR.p2wpkh2, 20_000_000n],
    ]);
    expect(got.reduce((s, o) => s + o.baseUnits, 0n)).toBe(30_000_000n);
  });

  it('reads the recorded mainnet transaction: a base58 P2SH output and a P2WPKH one', async () => {
    node.btc.include(recordedEsploraTx());
    const [b] = node.btc.mine(1);
    const got = await adapter.scan(
      { from: b!.height, to: b!.height },
      watched(ADDR.p2shRecorded, ADDR.p2wpkhRecorded),
      BTC,
    );
    expect(got.map((o) => [o.index, o.to, o.baseUnits])).toEqual([
      [0, '3FQCw7oaNiterPwM5wheiTaKVaDWPbHgKw', 31_000n],
      [1, ADDR.p2wpkhRecorded, 18_188n],
    ]);
    expect(got[0]!.txHash).toBe('efb6659d27c1f8cd4c0964e8abbf7921b53570b7680453226a981b443fd539b4');
  });

  it('sees a P2PKH payment and 21 million BTC to the satoshi; bech32 matched in any case, base58 only as written', async () => {
    node.btc.pay([{ to: ADDR.p2pkh, sats: 2_100_000_000_000_000n }]);
    node.btc.pay([{ to: ADDR.p2tr, sats: 1n }]);
    const [b] = node.btc.mine(1);
    const range = { from: b!.height, to: b!.height };
    const got = await adapter.scan(range, watched(ADDR.p2pkh, ADDR.p2tr.toUpperCase()), BTC);
    expect(got.map((o) => [o.to, o.baseUnits])).toEqual([
      [ADDR.p2pkh, 2_100_000_000_000_000n],
      [ADDR.p2tr, 1n],
    ]);
    expect(adapter.normalizeAddress(ADDR.p2pkh.toLowerCase())).not.toBe(ADDR.p2pkh);
    expect(await adapter.scan(range, new Set([ADDR.p2pkh.toLowerCase()]), BTC)).toEqual([]);
  });

  it('throws BrokenLink when the first block of the range does not follow the block kept below it', async () => {
    node.btc.pay([{ to: ADDR.p2wpkh2, sats: 4242n }]);
    const [first] = node.btc.mine(2);
    const range = { from: first!.height, to: first!.height + 1 };
    const keptBelow = node.btc.blocks[first!.height - 1]!;
    const err = await adapter
      .scan({ ...range, below: { number: keptBelow.height, hash: 'ef'.repeat(32) } }, watched(ADDR.p2wpkh2), BTC)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokenLink);
    expect(err).toMatchObject({ below: keptBelow.height, parent: keptBelow.hash });
    // The block really kept there: the range follows it and its payment is seen.
    const got = await adapter.scan(
      { ...range, below: { number: keptBelow.height, hash: keptBelow.hash } },
      watched(ADDR.p2wpkh2),
      BTC,
    );
    expect(got.map((o) => o.baseUnits)).toEqual([4242n]);
  });

  it('reads a block of many transactions page by page (25 per page)', async () => {
    node.btc.pay([{ to: ADDR.p2wpkh, sats: 777n }]);
    const [b] = node.btc.mine(1, 60);
    expect(b!.txs.length).toBe(62);
    node.requests.length = 0;
    const got = await adapter.scan({ from: b!.height, to: b!.height }, watched(ADDR.p2wpkh), BTC);
    expect(got.map((o) => o.baseUnits)).toEqual([777n]);
    const pages = node.requests.filter((r) => r.includes('/txs/')).sort();
    expect(pages).toEqual([
      `GET /block/${b!.hash}/txs/0`,
      `GET /block/${b!.hash}/txs/25`,
      `GET /block/${b!.hash}/txs/50`,
    ]);
  });

  it('scans a range of blocks, each linked to the one before; nothing is fetched page-wise without addresses', async () => {
    const from = node.btc.tip.height + 1;
    node.btc.pay([{ to: ADDR.p2wpkh, sats: 5n }]);
    node.btc.mine(3);
    const got = await adapter.scan({ from, to: from + 2 }, watched(ADDR.p2wpkh), BTC);
    expect(got.map((o) => o.block.number)).toEqual([from]);
    node.requests.length = 0;
    expect(await adapter.scan({ from, to: from + 2 }, new Set(), BTC)).toEqual([]);
    expect(node.requests.some((r) => r.includes('/txs/'))).toBe(false);
  });

  it('throws when a block in the range does not follow the one before (the chain moved)', async () => {
    node.btc.mine(2);
    const top = node.btc.tip;
    node.override = ({ path }) =>
      path === `/block/${top.hash}`
        ? {
            status: 200,
            body: JSON.stringify({ id: top.hash, height: top.height, tx_count: 1, previousblockhash: 'ab'.repeat(32) }),
          }
        : undefined;
    const err = await adapter
      .scan({ from: top.height - 1, to: top.height }, watched(ADDR.p2wpkh), BTC)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChainMoved);
    expect(String(err)).toMatch(/the chain moved while blocks were read/);
  });

  it('after a reorganisation the replaced block hash is gone and its payment is not reported', async () => {
    node.btc.pay([{ to: ADDR.p2wpkh2, sats: 42n }]);
    const [paid] = node.btc.mine(1);
    node.btc.mine(1);
    expect(await adapter.scan({ from: paid!.height, to: paid!.height }, watched(ADDR.p2wpkh2), BTC)).toHaveLength(1);
    node.btc.reorg(2);
    expect(await adapter.blockHash(paid!.height)).not.toBe(paid!.hash);
    expect((await adapter.head()).number).toBe(paid!.height + 2);
    expect(await adapter.scan({ from: paid!.height, to: paid!.height + 2 }, watched(ADDR.p2wpkh2), BTC)).toEqual([]);
  });

  it('reports mempool payments (0 confirmations) until they are mined', async () => {
    const tx = node.btc.pay([{ to: ADDR.p2wpkh2, sats: 99n }]);
    const pending = await adapter.pending!(watched(ADDR.p2wpkh, ADDR.p2wpkh2), BTC);
    expect(pending).toEqual([{ txHash: tx.txid, index: 0, to: ADDR.p2wpkh2, asset: 'BTC', baseUnits: 99n }]);
    node.btc.mine(1);
    expect(await adapter.pending!(watched(ADDR.p2wpkh, ADDR.p2wpkh2), BTC)).toEqual([]);
  });

  it('follows only the native coin, in satoshis', async () => {
    const h = node.btc.tip.height;
    expect(
      await adapter.scan({ from: h, to: h }, watched(ADDR.p2wpkh), [{ asset: 'X', contract: 'abc', decimals: 8 }]),
    ).toEqual([]);
    await expect(
      adapter.scan({ from: h, to: h }, watched(ADDR.p2wpkh), [{ asset: 'BTC', contract: null, decimals: 18 }]),
    ).rejects.toThrow(/Bitcoin amounts are satoshis/);
    await expect(adapter.scan({ from: h, to: h - 1 }, watched(ADDR.p2wpkh), BTC)).rejects.toThrow(/not a range/);
  });
});

describe('malformed Esplora answers are errors that say what was wrong', () => {
  const cases: [string, (path: string) => string | undefined, RegExp][] = [
    [
      'a tip that is not a height',
      (p) => (p === '/blocks/tip/height' ? 'soon' : undefined),
      /tip\/height: expected a block height/,
    ],
    [
      'a hash that is not hex',
      (p) => (p.startsWith('/block-height/') ? 'nope' : undefined),
      /expected a 64-digit hex hash/,
    ],
    [
      'a block that is not JSON',
      (p) => (/^\/block\/[0-9a-f]{64}$/.test(p) ? '<html>' : undefined),
      /answer is not JSON/,
    ],
    [
      'a block without a height',
      (p) => (/^\/block\/[0-9a-f]{64}$/.test(p) ? '{"id":"x"}' : undefined),
      /height: expected a block height/,
    ],
    [
      'a block without transactions',
      (p) => {
        const m = /^\/block\/([0-9a-f]{64})$/.exec(p);
        return m
          ? JSON.stringify({ id: m[1], height: node.btc.tip.height, tx_count: 0, previousblockhash: node.btc.tip.prev })
          : undefined;
      },
      /tx_count: a block holds at least its coinbase/,
    ],
    ['a page of the wrong length', (p) => (p.includes('/txs/') ? '[]' : undefined), /0 transactions, expected/],
    [
      'a fractional value',
      (p) =>
        p.includes('/txs/')
          ? JSON.stringify([{ txid: 'cd'.repeat(32), vout: [{ scriptpubkey_address: ADDR.p2wpkh, value: 1.5 }] }])
          : undefined,
      /value: expected a whole number/,
    ],
    [
      'a value above 21 million BTC',
      (p) =>
        p.includes('/txs/')
          ? `[{"txid":"${'cd'.repeat(32)}","vout":[{"scriptpubkey_address":"${ADDR.p2wpkh}","value":2100000000000001}]}]`
          : undefined,
      /value: expected a whole number up to 2100000000000000/,
    ],
  ];
  for (const [name, answer, message] of cases)
    it(name, async () => {
      node.btc.mine(1);
      const h = node.btc.tip.height;
      node.override = ({ path }) => {
        const body = answer(path);
        return body === undefined ? undefined : { status: 200, body };
      };
      const err = await (async () => {
        await adapter.head();
        return adapter.scan({ from: h, to: h }, watched(ADDR.p2wpkh), BTC);
      })().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BitcoinNodeError);
      expect(String(err)).toMatch(message);
    });

  it('a URL that is not the API root', async () => {
    const wrong = esploraAdapter({ url: url.replace(/\/api$/, '/nope'), apiKey: node.apiKey, fetch: fetcher.fetchFn });
    await expect(wrong.networkId()).rejects.toThrow(/is the URL the API root/);
  });

  it('a server error and an oversized answer', async () => {
    node.override = () => ({ status: 503, body: 'overloaded' });
    await expect(adapter.networkId()).rejects.toThrow(/block-height\/0: HTTP 503 "overloaded"/);
    node.override = () => ({ status: 200, body: `"${'a'.repeat(5000)}"` });
    const small = loopbackFetch(1024);
    const tiny = esploraAdapter({ url, apiKey: node.apiKey, fetch: small.fetchFn });
    await expect(tiny.head()).rejects.toThrow(/larger than/);
    const bounded = esploraAdapter({ url, apiKey: node.apiKey, fetch: fetcher.fetchFn, maxAnswerBytes: 1024 });
    await expect(bounded.head()).rejects.toThrow(/answer larger than 1024 bytes/);
    small.close();
  });
});
