import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BrokenLink,
  type ChainAdapter,
  ChainMoved,
  type WatchedAsset,
} from '../../src/features/chain-watch/adapter.js';
import {
  TronNodeError,
  tronAdapter,
  tronBase58ToHex,
  tronHexToBase58,
} from '../../src/features/chain-watch/adapters/tron/index.js';
import { guardedFetch } from '../../src/outbound/fetch.js';
import { checkedAddresses, systemResolver } from '../../src/outbound/guard.js';
import { render, TronNodeStandIn, USDT_TRON } from './stand-ins/tron-node.js';

const USDC_TRON = 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8';
const USDT: WatchedAsset = { asset: 'USDT', contract: USDT_TRON, decimals: 6 };
const TRX: WatchedAsset = { asset: 'TRX', contract: null, decimals: 6 };
/** Deposit addresses (valid base58check, mixed case as TRON spells them). */
const ALICE = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const BOB = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
const CAROL = tronHexToBase58(`41${'ab'.repeat(20)}`);
const KEY = 'tron-pro-api-key-of-the-test';

/** Through the outbound guard as the watcher connects: loopback allowed as on a sandbox server. */
const fetcher = guardedFetch({
  check: (host) => checkedAddresses(host, { sandbox: true, resolve: systemResolver }),
  maxSockets: 4,
  maxAnswerBytes: 64 * 1024 * 1024,
  what: 'TRON answer',
});

let node: TronNodeStandIn;
let url: string;
const adapterFor = (extra: Partial<Parameters<typeof tronAdapter>[0]> = {}): ChainAdapter =>
  tronAdapter({ url, apiKey: KEY, fetch: fetcher.fetchFn, timeoutMs: 5000, ...extra });

beforeAll(async () => {
  node = new TronNodeStandIn();
  node.requiredApiKey = KEY;
  url = await node.start();
});
afterAll(async () => {
  await node.stop();
  fetcher.close();
});
beforeEach(() => {
  node.answerOverrides.clear();
  node.onRequest = undefined;
});

describe('TRON addresses', () => {
  it('41… hex converts to base58check T… and back (known mainnet pairs)', () => {
    const pairs: [string, string][] = [
      ['41a614f803b6fd780986a42c78ec9c7f77e6ded13c', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
      ['4174472e7d35395a6b5add427eecb7f4b62ad2b071', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'],
      ['410000000000000000000000000000000000000000', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'],
    ];
    for (const [hex, b58] of pairs) {
      expect(tronHexToBase58(hex)).toBe(b58);
      expect(tronBase58ToHex(b58)).toBe(hex);
    }
    expect(tronBase58ToHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T')).toBeUndefined(); // checksum
    expect(tronBase58ToHex('1BoatSLRHtKNngkdXEeobR76b53LETtpyT')).toBeUndefined(); // Bitcoin, not 0x41
    expect(() => tronHexToBase58('a614f803b6fd780986a42c78ec9c7f77e6ded13c')).toThrow(/41/);
  });

  it('normalizeAddress keeps base58 as written (case matters) and spells hex as base58', () => {
    const a = adapterFor();
    expect(a.normalizeAddress(USDT_TRON)).toBe(USDT_TRON);
    expect(a.normalizeAddress(USDT_TRON.toLowerCase())).toBe(USDT_TRON.toLowerCase());
    expect(a.normalizeAddress('41A614F803B6FD780986A42C78EC9C7F77E6DED13C')).toBe(USDT_TRON);
  });
});

describe('tronAdapter against a java-tron stand-in', () => {
  it('networkId is the genesis block id (block 0, printed without a number)', async () => {
    const a = adapterFor();
    expect(a.family).toBe('tron');
    expect(await a.networkId()).toBe(node.genesisId);
    const other = new TronNodeStandIn('another network');
    expect(other.genesisId).not.toBe(node.genesisId);
  });

  it('sends the API key as TRON-PRO-API-KEY; a refused key is a clear error that does not quote it', async () => {
    await adapterFor().head();
    expect(node.requests.at(-1)?.apiKey).toBe(KEY);
    const err = await adapterFor({ apiKey: 'wrong-key-123456' })
      .head()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TronNodeError);
    expect((err as Error).message).toMatch(/HTTP 401.*API key/);
    expect((err as Error).message).not.toContain('wrong-key-123456');
  });

  it('head is the newest block (or the newest solidified one); blockHash is null above the head', async () => {
    node.produce(5);
    node.solidify(node.head.number - 2);
    const a = adapterFor();
    expect(await a.head()).toMatchObject({ number: node.head.number, hash: node.head.id });
    expect(await adapterFor({ solidifiedHead: true }).head()).toMatchObject({
      number: node.solidified,
      hash: node.blocks[node.solidified]?.id,
    });
    expect(await a.blockHash(3)).toBe(node.blocks[3]?.id);
    expect(await a.blockHash(node.head.number + 1)).toBeNull();
  });

  it('a node without /wallet/getblock (older java-tron): block ids from whole blocks', async () => {
    node.answerOverrides.set('/wallet/getblock', { status: 404, text: '' });
    const seen = node.requests.length;
    const a = adapterFor();
    expect(await a.networkId()).toBe(node.genesisId);
    expect(await a.blockHash(2)).toBe(node.blocks[2]?.id);
    expect(await a.blockHash(node.head.number + 1)).toBeNull();
    expect(node.requests.slice(seen).filter((r) => r.path === '/wallet/getblock')).toHaveLength(1);
  });

  it('scan: TRX and TRC-20 transfers to watched addresses, exact amounts, successful ones only', async () => {
    const from = node.head.number + 1;
    const trx = node.payTrx(ALICE, 1_500_000n); // 1.5 TRX
    const big = node.payTrx(BOB, 9_007_199_254_740_993n); // past 2^53 sun: read from the text
    const usdt = node.payTrc20(USDT_TRON, ALICE, 12_345_678n); // 12.345678 USDT
    node.payTrc20(USDT_TRON, BOB, 5_000_000n, { success: false }); // reverted: no log, never reported
    node.payTrc20(USDT_TRON, BOB, 7_000_000n, { success: false, receiptOnly: true }); // receipt REVERT rules
    node.payTrx(ALICE, 3_000_000n, { success: false });
    node.payTrc20(USDC_TRON, ALICE, 1_000_000n); // a token not watched
    node.payTrx(CAROL, 2_000_000n); // an address not watched
    node.produce(1);
    const usdt2 = node.payTrc20(USDT_TRON, BOB, 1n);
    node.produce(2);
    const a = adapterFor();
    const obs = await a.scan({ from, to: node.head.number }, new Set([ALICE, BOB]), [TRX, USDT]);
    const b1 = { number: from, hash: node.blocks[from]?.id, time: (node.blocks[from]?.timestamp ?? 0) / 1000 };
    expect(obs).toEqual([
      { txHash: trx, index: 0, to: ALICE, asset: 'TRX', baseUnits: 1_500_000n, block: expect.objectContaining(b1) },
      {
        txHash: big,
        index: 0,
        to: BOB,
        asset: 'TRX',
        baseUnits: 9_007_199_254_740_993n,
        block: expect.objectContaining(b1),
      },
      { txHash: usdt, index: 0, to: ALICE, asset: 'USDT', baseUnits: 12_345_678n, block: expect.objectContaining(b1) },
      {
        txHash: usdt2,
        index: 0,
        to: BOB,
        asset: 'USDT',
        baseUnits: 1n,
        block: expect.objectContaining({ number: from + 1, hash: node.blocks[from + 1]?.id }),
      },
    ]);
    // Only the assets asked for: no TRX without the native asset, no USDT without its contract.
    const tokensOnly = await a.scan({ from, to: from }, new Set([ALICE, BOB]), [USDT]);
    expect(tokensOnly.map((o) => o.asset)).toEqual(['USDT']);
    const hexContract = await a.scan({ from, to: from }, new Set([ALICE]), [
      { ...USDT, contract: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c' },
    ]);
    expect(hexContract.map((o) => o.baseUnits)).toEqual([12_345_678n]);
    expect(await a.scan({ from, to: from }, new Set([CAROL.toLowerCase()]), [TRX])).toEqual([]);
  });

  it('scan throws when a block does not follow the previous one (the node switched branches mid-scan)', async () => {
    node.produce(6);
    const top = node.head.number;
    let done = false;
    node.onRequest = (path, body) => {
      if (!done && path === '/wallet/getblockbynum' && body.num === top - 2) {
        done = true;
        node.reorg(4);
      }
    };
    const err = await adapterFor({ concurrency: 1 })
      .scan({ from: top - 5, to: top }, new Set([ALICE]), [TRX, USDT])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChainMoved);
    expect((err as Error).message).toMatch(`block ${top - 2} does not follow block ${top - 3}`);
    // On the new branch the same range is one chain again.
    expect(await adapterFor().scan({ from: top - 5, to: top }, new Set([ALICE]), [TRX])).toEqual([]);
  });

  it('scan throws BrokenLink when the first block does not follow the block kept below the range', async () => {
    node.payTrx(ALICE, 5_000_000n);
    node.produce(2);
    const n = node.head.number - 1;
    const range = { from: n, to: n + 1 };
    const keptBelow = node.blocks[n - 1]!;
    const a = adapterFor();
    const err = await a
      .scan({ ...range, below: { number: n - 1, hash: 'ab'.repeat(32) } }, new Set([ALICE]), [TRX])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokenLink);
    expect(err).toMatchObject({ below: n - 1, parent: keptBelow.id });
    // The block really kept there: the range follows it and its payment is seen.
    const got = await a.scan({ ...range, below: { number: n - 1, hash: keptBelow.id } }, new Set([ALICE]), [TRX]);
    expect(got.map((o) => o.baseUnits)).toEqual([5_000_000n]);
    // A kept block further down says nothing about the range's first block's parent.
    const far = { number: n - 2, hash: 'ab'.repeat(32) };
    expect(await a.scan({ ...range, below: far }, new Set([ALICE]), [TRX])).toHaveLength(1);
  });

  it('scan throws when the transaction infos are not of the block it read (replaced in between)', async () => {
    node.payTrc20(USDT_TRON, ALICE, 4_000_000n);
    node.produce(1);
    const n = node.head.number;
    node.onRequest = (path) => {
      if (path === '/wallet/gettransactioninfobyblocknum') {
        node.onRequest = undefined;
        node.reorg(1);
      }
    };
    await expect(adapterFor().scan({ from: n, to: n }, new Set([ALICE]), [USDT])).rejects.toThrow(ChainMoved);
  });

  it('a reorganisation that drops a payment block: the payment is gone on the new branch', async () => {
    const tx = node.payTrx(ALICE, 42n);
    node.produce(1);
    const n = node.head.number;
    const a = adapterFor();
    expect((await a.scan({ from: n, to: n }, new Set([ALICE]), [TRX])).map((o) => o.txHash)).toEqual([tx]);
    const before = await a.blockHash(n);
    node.reorg(1);
    expect(await a.blockHash(n)).not.toBe(before);
    expect(await a.scan({ from: n, to: node.head.number }, new Set([ALICE]), [TRX])).toEqual([]);
  });

  describe('malformed answers are clear errors', () => {
    const cases: [string, string, number, RegExp][] = [
      ['/wallet/getblockbynum', 'not json <html>', 200, /getblockbynum \{"num":\d+\}: answer is not JSON/],
      ['/wallet/getblockbynum', '{"blockID":"zz","block_header":{}}', 200, /malformed answer \(blockID/],
      ['/wallet/getblockbynum', '[1,2]', 200, /malformed answer \(not an object\)/],
      [
        '/wallet/getblockbynum',
        '{"Error":"class java.lang.NullPointerException : null"}',
        200,
        /node error: class java.lang.NullPointerException/,
      ],
      ['/wallet/gettransactioninfobyblocknum', '{"id":1}', 200, /malformed answer \(not a list\)/],
      ['/wallet/gettransactioninfobyblocknum', '[{"id":"00"}]', 200, /malformed answer \(\[0\]\.id/],
      ['/wallet/getnowblock', '', 502, /getnowblock: HTTP 502/],
      ['/wallet/getnowblock', '{}', 200, /malformed answer \(blockID/],
    ];
    it.each(cases)('%s answering %s (HTTP %i)', async (path, text, status, message) => {
      node.payTrc20(USDT_TRON, ALICE, 1n);
      node.produce(1);
      node.answerOverrides.set(path, { status, text });
      const a = adapterFor();
      const call =
        path === '/wallet/getnowblock'
          ? a.head()
          : a.scan({ from: node.head.number, to: node.head.number }, new Set([ALICE]), [USDT]);
      const err = await call.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TronNodeError);
      expect((err as Error).message).toMatch(message);
    });

    it('a block id that does not start with its height, a fractional or negative amount', async () => {
      const block = node.blockJson(node.head, true) as { blockID: string };
      node.answerOverrides.set('/wallet/getnowblock', {
        text: JSON.stringify({ ...block, blockID: `ff${block.blockID.slice(2)}` }),
      });
      await expect(adapterFor().head()).rejects.toThrow(/does not start with height/);
      node.payTrx(ALICE, 5n);
      node.produce(1);
      const n = node.head.number;
      const text = render(node.blockJson(node.head, true));
      for (const bad of ['1.5', '-5']) {
        node.answerOverrides.set('/wallet/getblockbynum', { text: text.replace('"amount":5', `"amount":${bad}`) });
        await expect(adapterFor().scan({ from: n, to: n }, new Set([ALICE]), [TRX])).rejects.toThrow(/amount/);
      }
    });

    it('an answer past the size limit is refused', async () => {
      await expect(adapterFor({ maxAnswerBytes: 200 }).head()).rejects.toThrow(/larger than 200 bytes/);
    });

    it('a node that has no block in the range yet', async () => {
      const n = node.head.number;
      await expect(adapterFor().scan({ from: n, to: n + 1 }, new Set([ALICE]), [TRX])).rejects.toThrow(
        `has no block ${n + 1}`,
      );
    });
  });
});
