import {
  type BlockRef,
  type ChainAdapter,
  ChainMoved,
  checkBelow,
  type ChainObservation,
  type ScanRange,
  type WatchedAsset,
} from '../../adapter.js';
import { isTronHexAddress, tronBase58ToHex, tronHexToBase58 } from '../../../../chain-families/tron/address.js';
import { isNoBlock, readBlock, readHeader, readTxInfos, type TronBlock, type TronTxInfo } from './answers.js';
import { type TronClientOptions, TronNodeError, tronClient } from './client.js';

export { TronNodeError } from './client.js';
export { tronBase58ToHex, tronHexToBase58 } from '../../../../chain-families/tron/address.js';

export interface TronAdapterOptions extends TronClientOptions {
  /**
   * Count confirmations from the newest solidified block (/walletsolidity/getnowblock) rather than
   * the newest block. Off by default: the catalog's 19 confirmations on the newest block already
   * wait for what solidification waits for (19 of the 27 block producers building on top).
   */
  solidifiedHead?: boolean;
  /** Blocks fetched at once within a scan; default 4. */
  concurrency?: number;
  /** Lets go of the fetch's sockets (the generic part's guarded fetch). */
  close?: (() => void) | undefined;
}

/** Most blocks per scan: each is fetched whole (~1 MB on mainnet) with its transaction infos. */
export const TRON_SCAN_LIMIT = 20;

/** keccak-256 of Transfer(address,address,uint256): the TRC-20 event, same as ERC-20. */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const WORD = /^[0-9a-f]{64}$/;

interface Fetched {
  block: TronBlock;
  infos: TronTxInfo[];
}

/** A java-tron node's HTTP API (or TronGrid, which speaks the same) as a chain-watch adapter. */
export function tronAdapter(opts: TronAdapterOptions): ChainAdapter {
  const client = tronClient(opts);
  const concurrency = Math.max(1, Math.min(opts.concurrency ?? 4, 16));

  /** Older java-tron versions lack /wallet/getblock (a header without the transactions): they get whole blocks. */
  let headersOnly = true;

  async function header(n: number): Promise<BlockRef | null> {
    const what = `getblock ${n}`;
    let answer: unknown;
    if (headersOnly) {
      try {
        answer = await client.post('/wallet/getblock', { id_or_num: String(n), detail: false });
      } catch (err) {
        if (!(err instanceof TronNodeError && err.status === 404)) throw err;
        headersOnly = false;
      }
    }
    if (!headersOnly) answer = await client.post('/wallet/getblockbynum', { num: n });
    if (isNoBlock(answer)) return null;
    const h = readHeader(answer, what);
    if (h.number !== n) throw new TronNodeError(`${what}: the node answered block ${h.number}`);
    return { number: h.number, hash: h.id };
  }

  async function fetchBlock(n: number, needInfos: boolean): Promise<Fetched> {
    const what = `getblockbynum ${n}`;
    const answer = await client.post('/wallet/getblockbynum', { num: n });
    if (isNoBlock(answer)) throw new TronNodeError(`${what}: the node has no block ${n} (yet)`);
    const block = readBlock(answer, what);
    if (block.number !== n) throw new TronNodeError(`${what}: the node answered block ${block.number}`);
    if (!needInfos || block.txs.length === 0) return { block, infos: [] };
    const infoWhat = `gettransactioninfobyblocknum ${n}`;
    const infos = readTxInfos(await client.post('/wallet/gettransactioninfobyblocknum', { num: n }), infoWhat);
    // Asked one after the other: both answers must be of the same block, else it was replaced between them.
    // java-tron answers one entry per transaction of the block.
    const ids = new Set(block.txs.map((t) => t.txId));
    const moved = infos.length !== ids.size || infos.some((i) => i.blockNumber !== n || !ids.has(i.txId));
    if (moved)
      throw new ChainMoved(`TRON node ${infoWhat}: not the transactions of block ${block.id}: the chain changed`);
    return { block, infos };
  }

  function observe(
    { block, infos }: Fetched,
    watched: ReadonlySet<string>,
    native: WatchedAsset | undefined,
    tokens: ReadonlyMap<string, WatchedAsset>,
  ): ChainObservation[] {
    const ref: BlockRef = { number: block.number, hash: block.id, time: block.time };
    const out: ChainObservation[] = [];
    const succeeded = new Set<string>();
    for (const tx of block.txs) {
      if (!tx.success) continue;
      succeeded.add(tx.txId);
      if (native && tx.trx && tx.trx.amount > 0n && watched.has(tx.trx.to))
        out.push({
          txHash: tx.txId,
          index: 0,
          to: tronHexToBase58(tx.trx.to),
          asset: native.asset,
          baseUnits: tx.trx.amount,
          block: ref,
        });
    }
    for (const info of infos) {
      // Both the block's result and the receipt must say SUCCESS: a reverted transfer moved nothing.
      if (!info.success || !succeeded.has(info.txId)) continue;
      info.logs.forEach((log, i) => {
        const asset = tokens.get(log.contract);
        if (!asset || log.topics.length !== 3 || log.topics[0] !== TRANSFER_TOPIC) return;
        const toWord = log.topics[2] as string;
        if (!WORD.test(toWord) || !WORD.test(log.data)) return;
        const to = `41${toWord.slice(24)}`;
        if (!watched.has(to)) return;
        const baseUnits = BigInt(`0x${log.data}`);
        if (baseUnits === 0n) return;
        out.push({ txHash: info.txId, index: i, to: tronHexToBase58(to), asset: asset.asset, baseUnits, block: ref });
      });
    }
    return out;
  }

  const adapter: ChainAdapter = {
    family: 'tron',

    async networkId() {
      const genesis = await header(0);
      if (!genesis) throw new TronNodeError('getblock 0: the node has no genesis block');
      return genesis.hash;
    },

    async head() {
      const path = opts.solidifiedHead ? '/walletsolidity/getnowblock' : '/wallet/getnowblock';
      const h = readHeader(await client.post(path, {}), path.slice(1));
      return { number: h.number, hash: h.id, time: h.time };
    },

    async blockHash(number) {
      return (await header(number))?.hash ?? null;
    },

    async scan(range: ScanRange, addresses, assets) {
      if (!Number.isSafeInteger(range.from) || !Number.isSafeInteger(range.to) || range.from < 0)
        throw new TronNodeError(`scan: bad range ${range.from}..${range.to}`);
      if (range.to < range.from) return [];
      const watched = new Set<string>();
      for (const a of addresses) {
        const hex = isTronHexAddress(a) ? a.toLowerCase() : tronBase58ToHex(a);
        if (hex) watched.add(hex);
      }
      const native = assets.find((a) => a.contract === null);
      const tokens = new Map<string, WatchedAsset>();
      for (const a of assets) {
        if (a.contract === null) continue;
        const hex = isTronHexAddress(a.contract) ? a.contract.toLowerCase() : tronBase58ToHex(a.contract);
        if (!hex) throw new TronNodeError(`scan: ${a.asset} contract ${a.contract} is not a TRON address`);
        tokens.set(hex, a);
      }
      const out: ChainObservation[] = [];
      let previous: string | undefined;
      for (let start = range.from; start <= range.to; start += concurrency) {
        const end = Math.min(range.to, start + concurrency - 1);
        const batch = await Promise.all(
          Array.from({ length: end - start + 1 }, (_, i) => fetchBlock(start + i, tokens.size > 0 && watched.size > 0)),
        );
        for (const fetched of batch) {
          if (fetched.block.number === range.from)
            checkBelow(range, fetched.block.parentHash, `TRON scan getblockbynum ${range.from}`);
          if (previous !== undefined && fetched.block.parentHash !== previous)
            throw new ChainMoved(
              `TRON scan: block ${fetched.block.number} does not follow block ${fetched.block.number - 1} (parent ${fetched.block.parentHash}, expected ${previous}): the chain changed`,
            );
          previous = fetched.block.id;
          out.push(...observe(fetched, watched, native, tokens));
        }
      }
      return out;
    },

    scanLimit: () => TRON_SCAN_LIMIT,

    close() {
      opts.close?.();
    },

    normalizeAddress(address) {
      const trimmed = address.trim();
      // Base58 is case-sensitive: kept as written. A 41… hex spelling is turned into it.
      return isTronHexAddress(trimmed) ? tronHexToBase58(trimmed.toLowerCase()) : trimmed;
    },
  };
  return adapter;
}
