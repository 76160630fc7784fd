import {
  type BlockRef,
  type ChainAdapter,
  ChainMoved,
  checkBelow,
  type ChainObservation,
  type ScanRange,
  type WatchedAsset,
} from '../../adapter.js';
import { JsonNumber, MAX_SATS } from './amount.js';
import { normalizeBitcoinAddress } from '../../../../chain-families/btc/index.js';
import {
  type BitcoinAdapterOptions,
  BitcoinNodeError,
  checkLink,
  checkRange,
  endpoint,
  nativeAsset,
  parseAnswer,
  read,
  request,
  SCAN_LIMIT,
} from './node.js';

/** Esplora pages a block's transactions 25 at a time (`/block/:hash/txs/:start`). */
const PAGE = 25;
/** A 4 MWU block holds at most ~25,000 transactions of 60 vbytes and more; this is a sanity bound. */
const MAX_TXS_PER_BLOCK = 30_000;
/** Outputs of one transaction read at most (a standard transaction is below 100 kvB: ~3,000 outputs). */
const MAX_OUTPUTS = 10_000;
/** Pages fetched at once for one block. */
const PAGE_CONCURRENCY = 4;
/** Addresses whose mempool is asked per round (`/address/:a/txs/mempool` is one request each). */
export const MAX_PENDING_ADDRESSES = 100;
/** Esplora answers up to 50 mempool transactions per address. */
const MAX_MEMPOOL_TXS = 50;

/**
 * Bitcoin over the Esplora HTTP API (Blockstream's esplora, mempool.space, a self-hosted electrs):
 * block hashes by height, each block's header fields for its parent link, its transactions 25 at a
 * time; values are satoshis as JSON integers.
 */
export function esploraAdapter(opts: BitcoinAdapterOptions): ChainAdapter {
  const ep = endpoint(opts.url, opts.apiKey, 'Bearer');
  const limits = { timeoutMs: opts.timeoutMs ?? 30_000, maxAnswerBytes: opts.maxAnswerBytes ?? 32 * 1024 * 1024 };
  const headers: Record<string, string> = { accept: 'application/json, text/plain' };
  if (ep.authorization) headers.authorization = ep.authorization;

  async function get(path: string): Promise<{ status: number; text: string }> {
    const what = `esplora GET ${path}`;
    const res = await request(opts.fetch, ep.at(path), { method: 'GET', headers }, limits, what);
    if (res.status !== 200 && res.status !== 404)
      throw new BitcoinNodeError(`${what}: HTTP ${res.status} ${JSON.stringify(res.text.slice(0, 120))}`);
    return res;
  }

  async function getJson(path: string): Promise<unknown> {
    const res = await get(path);
    if (res.status === 404) throw new BitcoinNodeError(`esplora GET ${path}: not found`);
    return parseAnswer(res.text, `esplora GET ${path}`);
  }

  /** `/block-height/:h`: the hash as text, 404 when the node has no block there (yet). */
  async function blockHash(height: number): Promise<string | null> {
    const path = `/block-height/${height}`;
    const res = await get(path);
    if (res.status === 404) return null;
    return read.hash(res.text.trim(), `esplora GET ${path}`);
  }

  async function block(hash: string) {
    const what = `esplora GET /block/${hash}`;
    const b = read.object(await getJson(`/block/${hash}`), what);
    const height = read.height(b.height, `${what} height`);
    const out = {
      hash: read.hash(b.id, `${what} id`),
      height,
      // The genesis block has no parent: null or absent.
      previous:
        height === 0 && (b.previousblockhash ?? null) === null
          ? null
          : read.hash(b.previousblockhash, `${what} previousblockhash`),
      time:
        b.timestamp instanceof JsonNumber && Number.isSafeInteger(b.timestamp.value) ? b.timestamp.value : undefined,
      txCount: Number(read.uint(b.tx_count, `${what} tx_count`, BigInt(MAX_TXS_PER_BLOCK))),
    };
    // Every block has its coinbase: a count of 0 would hide the block's payments.
    if (out.txCount < 1) throw new BitcoinNodeError(`${what} tx_count: a block holds at least its coinbase`);
    return out;
  }

  async function txPage(hash: string, start: number, expected: number): Promise<unknown[]> {
    const path = `/block/${hash}/txs/${start}`;
    const txs = read.array(await getJson(path), `esplora GET ${path}`, PAGE);
    if (txs.length !== expected)
      throw new BitcoinNodeError(`esplora GET ${path}: ${txs.length} transactions, expected ${expected}`);
    return txs;
  }

  function outputsTo(tx: unknown, addresses: ReadonlySet<string>, what: string) {
    const t = read.object(tx, what);
    const txid = read.hash(t.txid, `${what} txid`);
    const vout = read.array(t.vout, `${what} ${txid} vout`, MAX_OUTPUTS);
    const found: { txHash: string; index: number; to: string; baseUnits: bigint }[] = [];
    vout.forEach((o, index) => {
      const out = read.object(o, `${what} ${txid} vout[${index}]`);
      const addr = out.scriptpubkey_address;
      if (typeof addr !== 'string') return; // OP_RETURN, bare multisig, unknown scripts: no address
      const to = normalizeBitcoinAddress(addr);
      if (!addresses.has(to)) return;
      const baseUnits = read.uint(out.value, `${what} ${txid} vout[${index}] value`, MAX_SATS);
      found.push({ txHash: txid, index, to, baseUnits });
    });
    return { txid, status: t.status, found };
  }

  async function scanBlock(hash: string, txCount: number, addresses: ReadonlySet<string>) {
    const starts: number[] = [];
    for (let s = 0; s < txCount; s += PAGE) starts.push(s);
    const pages: unknown[][] = new Array(starts.length);
    let next = 0;
    const worker = async () => {
      while (next < starts.length) {
        const i = next++;
        const s = starts[i] as number;
        pages[i] = await txPage(hash, s, Math.min(PAGE, txCount - s));
      }
    };
    await Promise.all(Array.from({ length: Math.min(PAGE_CONCURRENCY, starts.length) }, worker));
    return pages.flat().flatMap((tx, i) => outputsTo(tx, addresses, `esplora block ${hash} tx ${i}`).found);
  }

  return {
    family: 'btc',

    async networkId() {
      const genesis = await blockHash(0);
      if (genesis === null)
        throw new BitcoinNodeError(
          'esplora GET /block-height/0: not found: is the URL the API root (e.g. https://blockstream.info/api)?',
        );
      return genesis;
    },

    async head(): Promise<BlockRef> {
      const path = '/blocks/tip/height';
      const res = await get(path);
      const text = res.text.trim();
      if (res.status !== 200 || !/^\d{1,10}$/.test(text))
        throw new BitcoinNodeError(
          `esplora GET ${path}: expected a block height, got ${JSON.stringify(text.slice(0, 40))}`,
        );
      const number = Number(text);
      const hash = await blockHash(number);
      // The tip moved down between the two calls (a reorganisation to a shorter chain): ask again next round.
      if (hash === null) throw new ChainMoved(`esplora: the tip ${number} disappeared while it was read`);
      return { number, hash };
    },

    blockHash,

    async scan(range: ScanRange, addresses: ReadonlySet<string>, assets: readonly WatchedAsset[]) {
      checkRange(range.from, range.to);
      const native = nativeAsset(assets);
      const out: ChainObservation[] = [];
      let before: string | undefined;
      for (let h = range.from; h <= range.to; h++) {
        const hash = await blockHash(h);
        if (hash === null) throw new ChainMoved(`esplora: no block at height ${h} (the tip moved below it)`);
        const b = await block(hash);
        checkLink(b, h, hash, before, `esplora GET /block/${hash}`);
        if (h === range.from) checkBelow(range, b.previous, `esplora GET /block/${hash}`);
        before = hash;
        if (native === undefined || addresses.size === 0) continue;
        for (const o of await scanBlock(hash, b.txCount, addresses))
          out.push({ ...o, asset: native.asset, block: { number: h, hash, time: b.time } });
      }
      // The last block is still the chain's: a reorganisation during the range would show here.
      if (before !== undefined && (await blockHash(range.to)) !== before)
        throw new ChainMoved(`esplora: block ${range.to} changed while the range was read`);
      return out;
    },

    async pending(addresses: ReadonlySet<string>, assets: readonly WatchedAsset[]) {
      const native = nativeAsset(assets);
      if (native === undefined) return [];
      const out: Omit<ChainObservation, 'block'>[] = [];
      const seen = new Set<string>();
      for (const address of [...addresses].slice(0, MAX_PENDING_ADDRESSES)) {
        const path = `/address/${encodeURIComponent(address)}/txs/mempool`;
        const txs = read.array(await getJson(path), `esplora GET ${path}`, MAX_MEMPOOL_TXS);
        for (const tx of txs) {
          const { status, found } = outputsTo(tx, addresses, `esplora GET ${path}`);
          if (status !== undefined && read.object(status, `esplora GET ${path} status`).confirmed === true) continue;
          for (const o of found) {
            const key = `${o.txHash}:${o.index}`;
            if (seen.has(key)) continue;
            seen.add(key);
            out.push({ ...o, asset: native.asset });
          }
        }
      }
      return out;
    },

    normalizeAddress: normalizeBitcoinAddress,

    scanLimit: () => SCAN_LIMIT,

    close: () => opts.close?.(),
  };
}
