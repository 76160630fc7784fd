import {
  type BlockRef,
  type ChainAdapter,
  ChainMoved,
  checkBelow,
  type ChainObservation,
  type ScanRange,
  type WatchedAsset,
} from '../../adapter.js';
import { btcTextToSats, JsonNumber } from './amount.js';
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

const MAX_TXS_PER_BLOCK = 30_000;
const MAX_OUTPUTS = 10_000;
/** RPC_INVALID_PARAMETER: what `getblockhash` answers for a height above the tip. */
const RPC_INVALID_PARAMETER = -8;

/**
 * Bitcoin over Bitcoin Core's JSON-RPC: `getblockhash` by height, `getblock <hash> 2` for a
 * block with its transactions decoded, `getblockchaininfo` for the tip. Amounts are BTC as JSON
 * numbers, read from their text into satoshis exactly.
 */
export function bitcoinCoreAdapter(opts: BitcoinAdapterOptions): ChainAdapter {
  const ep = endpoint(opts.url, opts.apiKey, 'Basic');
  const limits = { timeoutMs: opts.timeoutMs ?? 30_000, maxAnswerBytes: opts.maxAnswerBytes ?? 32 * 1024 * 1024 };
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (ep.authorization) headers.authorization = ep.authorization;
  let id = 0;

  /** One call; an RPC error is a value ({ code, message }) so callers can tell "no such block" from a failure. */
  async function call(
    method: string,
    params: unknown[],
  ): Promise<{ result: unknown } | { error: { code: number; message: string } }> {
    const what = `bitcoin-core ${method}`;
    const body = JSON.stringify({ jsonrpc: '1.0', id: `hostpay-${++id}`, method, params });
    const res = await request(opts.fetch, ep.at(''), { method: 'POST', headers, body }, limits, what);
    if (res.status === 401 || res.status === 403)
      throw new BitcoinNodeError(
        `${what}: HTTP ${res.status}: the node refused the credentials (give rpcuser:rpcpassword as the API key, and allow this host with rpcallowip)`,
      );
    // Core answers RPC errors with HTTP 500 (404 for an unknown method) and the error in the body.
    if (res.text.trim() === '') throw new BitcoinNodeError(`${what}: HTTP ${res.status} with an empty answer`);
    const answer = read.object(parseAnswer(res.text, what), what);
    if (answer.error !== null && answer.error !== undefined) {
      const e = read.object(answer.error, `${what} error`);
      const code = e.code instanceof JsonNumber ? e.code.value : Number.NaN;
      const message = typeof e.message === 'string' ? e.message.slice(0, 200) : '(no message)';
      return { error: { code, message } };
    }
    if (res.status !== 200) throw new BitcoinNodeError(`${what}: HTTP ${res.status} without an error`);
    if (!('result' in answer)) throw new BitcoinNodeError(`${what}: answer has no result`);
    return { result: answer.result };
  }

  async function result(method: string, params: unknown[]): Promise<unknown> {
    const r = await call(method, params);
    if ('error' in r) throw new BitcoinNodeError(`bitcoin-core ${method}: error ${r.error.code}: ${r.error.message}`);
    return r.result;
  }

  async function blockHash(height: number): Promise<string | null> {
    const r = await call('getblockhash', [height]);
    if ('error' in r) {
      if (r.error.code === RPC_INVALID_PARAMETER) return null; // "Block height out of range"
      throw new BitcoinNodeError(`bitcoin-core getblockhash ${height}: error ${r.error.code}: ${r.error.message}`);
    }
    return read.hash(r.result, `bitcoin-core getblockhash ${height}`);
  }

  function outputsTo(tx: unknown, addresses: ReadonlySet<string>, what: string) {
    const t = read.object(tx, what);
    const txid = read.hash(t.txid, `${what} txid`);
    const vout = read.array(t.vout, `${what} ${txid} vout`, MAX_OUTPUTS);
    const found: { txHash: string; index: number; to: string; baseUnits: bigint }[] = [];
    vout.forEach((o, position) => {
      const w = `${what} ${txid} vout[${position}]`;
      const out = read.object(o, w);
      const index = Number(read.uint(out.n, `${w} n`, BigInt(MAX_OUTPUTS)));
      if (index !== position) throw new BitcoinNodeError(`${w}: n is ${index}`);
      const spk = read.object(out.scriptPubKey, `${w} scriptPubKey`);
      // Core 22+ writes `address`; older versions `addresses: [one]` for standard scripts.
      const addr =
        typeof spk.address === 'string'
          ? spk.address
          : Array.isArray(spk.addresses) && spk.addresses.length === 1 && typeof spk.addresses[0] === 'string'
            ? spk.addresses[0]
            : undefined;
      if (addr === undefined) return;
      const to = normalizeBitcoinAddress(addr);
      if (!addresses.has(to)) return;
      const value = out.value;
      const baseUnits = value instanceof JsonNumber ? btcTextToSats(value.text) : undefined;
      if (baseUnits === undefined)
        throw new BitcoinNodeError(
          `${w} value: expected BTC with at most 8 decimals up to 21000000, got ${value instanceof JsonNumber ? value.text : JSON.stringify(value)}`,
        );
      found.push({ txHash: txid, index, to, baseUnits });
    });
    return found;
  }

  return {
    family: 'btc',

    async networkId() {
      const genesis = await blockHash(0);
      if (genesis === null) throw new BitcoinNodeError('bitcoin-core getblockhash 0: the node has no genesis block');
      return genesis;
    },

    async head(): Promise<BlockRef> {
      const info = read.object(await result('getblockchaininfo', []), 'bitcoin-core getblockchaininfo');
      return {
        number: read.height(info.blocks, 'bitcoin-core getblockchaininfo blocks'),
        hash: read.hash(info.bestblockhash, 'bitcoin-core getblockchaininfo bestblockhash'),
      };
    },

    blockHash,

    async scan(range: ScanRange, addresses: ReadonlySet<string>, assets: readonly WatchedAsset[]) {
      checkRange(range.from, range.to);
      const native = nativeAsset(assets);
      const out: ChainObservation[] = [];
      let before: string | undefined;
      for (let h = range.from; h <= range.to; h++) {
        const hash = await blockHash(h);
        if (hash === null) throw new ChainMoved(`bitcoin-core: no block at height ${h} (the tip moved below it)`);
        const what = `bitcoin-core getblock ${hash}`;
        const b = read.object(await result('getblock', [hash, 2]), what);
        const height = read.height(b.height, `${what} height`);
        const previous =
          height === 0 && b.previousblockhash === undefined
            ? null
            : read.hash(b.previousblockhash, `${what} previousblockhash`);
        checkLink({ hash: read.hash(b.hash, `${what} hash`), height, previous }, h, hash, before, what);
        if (h === range.from) checkBelow(range, previous, what);
        before = hash;
        if (native === undefined || addresses.size === 0) continue;
        const time = b.time instanceof JsonNumber && Number.isSafeInteger(b.time.value) ? b.time.value : undefined;
        const txs = read.array(b.tx, `${what} tx`, MAX_TXS_PER_BLOCK);
        txs.forEach((tx, i) => {
          for (const o of outputsTo(tx, addresses, `${what} tx ${i}`))
            out.push({ ...o, asset: native.asset, block: { number: h, hash, time } });
        });
      }
      if (before !== undefined && (await blockHash(range.to)) !== before)
        throw new ChainMoved(`bitcoin-core: block ${range.to} changed while the range was read`);
      return out;
    },

    normalizeAddress: normalizeBitcoinAddress,

    scanLimit: () => SCAN_LIMIT,

    close: () => opts.close?.(),
  };
}
