import type { Hash } from 'viem';
import type { AdapterOptions } from '../options.js';
import {
  ChainMoved,
  checkBelow,
  expectedParent,
  type BlockRef,
  type ChainAdapter,
  type ChainObservation,
  type ScanRange,
  type WatchedAsset,
} from '../../adapter.js';
import { openRpcWith, type Rpc } from './rpc.js';

const ADDRESS_GROUP = 100;
const RANGE_ERROR = /range|too many|exceed|limit|too large|response size|max.*results|10000 /i;

/** EVM-only tuning (the registry's options carry them through untouched for other kinds). */
export interface EvmAdapterOptions extends AdapterOptions {
  /** Most blocks per eth_getLogs call. Default 2,000. */
  maxLogBlocks?: number | undefined;
  /** Blocks fetched with their transactions per scan when the native coin is watched. Default 25. */
  nativeBlocks?: number | undefined;
}

/**
 * An EVM node over JSON-RPC (viem): token transfers by eth_getLogs (Transfer topic, `to` among the
 * deposit addresses), native payments from the blocks with their transactions (successful
 * receipts only). A provider that caps the eth_getLogs range gets smaller pieces, remembered.
 */
export function evmAdapter(opts: EvmAdapterOptions): ChainAdapter {
  const maxChunk = opts.maxLogBlocks ?? 2000;
  const nativeBlocks = opts.nativeBlocks ?? 25;
  let chunk = Math.min(500, maxChunk);
  let rpc: Promise<Rpc> | undefined;
  const open = () => {
    rpc ??= openRpcWith(opts.url, { fetch: opts.fetch, checkHost: opts.checkHost, close: opts.close }, opts.timeoutMs);
    rpc.catch(() => {
      rpc = undefined;
    });
    return rpc;
  };

  async function block(n: number): Promise<(BlockRef & { time: number; parent: string }) | null> {
    const { client } = await open();
    const b = await client
      .getBlock({ blockNumber: BigInt(n) })
      .catch((err: Error) => (err.name === 'BlockNotFoundError' ? null : Promise.reject(err)));
    return b === null
      ? null
      : { number: Number(b.number), hash: b.hash, time: Number(b.timestamp), parent: b.parentHash };
  }

  async function tokens(
    from: number,
    to: number,
    watched: `0x${string}`[],
    list: WatchedAsset[],
    out: ChainObservation[],
  ): Promise<void> {
    const { client, viem } = await open();
    const event = viem.parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
    const byContract = new Map(list.map((t) => [t.contract!.toLowerCase(), t]));
    // The range in pieces the provider accepts: a refused piece is halved (and remembered).
    for (let start = from; start <= to; ) {
      const end = Math.min(to, start + chunk - 1);
      const got: ChainObservation[] = [];
      try {
        for (let i = 0; i < watched.length; i += ADDRESS_GROUP) {
          const logs = await client.getLogs({
            address: list.map((t) => t.contract as `0x${string}`),
            event,
            args: { to: watched.slice(i, i + ADDRESS_GROUP) },
            fromBlock: BigInt(start),
            toBlock: BigInt(end),
            strict: true,
          });
          for (const log of logs) {
            const token = byContract.get(log.address.toLowerCase());
            if (
              token === undefined ||
              log.removed ||
              log.blockHash === null ||
              log.transactionHash === null ||
              log.logIndex === null ||
              log.blockNumber === null ||
              log.args.value === 0n
            )
              continue;
            got.push({
              txHash: log.transactionHash,
              index: log.logIndex,
              to: log.args.to.toLowerCase(),
              asset: token.asset,
              baseUnits: log.args.value,
              block: { number: Number(log.blockNumber), hash: log.blockHash },
            });
          }
        }
      } catch (err) {
        const text = `${(err as Error).message} ${(err as { details?: string }).details ?? ''}`;
        if (end <= start || !RANGE_ERROR.test(text)) throw err;
        chunk = Math.max(1, Math.floor((end - start + 1) / 2));
        continue;
      }
      out.push(...got);
      if (end - start + 1 >= chunk) chunk = Math.min(maxChunk, Math.ceil(chunk * 1.5));
      start = end + 1;
    }
  }

  async function native(
    range: ScanRange,
    addresses: ReadonlySet<string>,
    asset: WatchedAsset,
    out: ChainObservation[],
    times: Map<number, { hash: Hash; time: number }>,
  ): Promise<void> {
    const { client } = await open();
    const { from, to } = range;
    const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
    let previous: string | undefined;
    for (let i = 0; i < numbers.length; i += 8) {
      const got = await Promise.all(
        numbers.slice(i, i + 8).map((n) => client.getBlock({ blockNumber: BigInt(n), includeTransactions: true })),
      );
      for (const b of got) {
        // Fetched whole anyway: each block must follow the one before it, the first the kept one.
        if (b.number === BigInt(from)) checkBelow(range, b.parentHash, `eth_getBlockByNumber ${from}`);
        if (previous !== undefined && b.parentHash !== previous)
          throw new ChainMoved(
            `block ${b.number} does not follow block ${Number(b.number) - 1} (parent ${b.parentHash}, expected ${previous}): the chain changed`,
          );
        previous = b.hash;
        const ref = { number: Number(b.number), hash: b.hash, time: Number(b.timestamp) };
        times.set(ref.number, ref);
        for (const tx of b.transactions) {
          if (tx.to === null || tx.value === 0n || !addresses.has(tx.to.toLowerCase())) continue;
          // A reverted transaction moved nothing: only a successful receipt counts.
          const receipt = await client.getTransactionReceipt({ hash: tx.hash });
          if (receipt.status !== 'success') continue;
          out.push({
            txHash: tx.hash,
            index: 0,
            to: tx.to.toLowerCase(),
            asset: asset.asset,
            baseUnits: tx.value,
            block: ref,
          });
        }
      }
    }
  }

  return {
    family: 'evm',
    async networkId() {
      return String(await (await open()).chainId());
    },
    async head() {
      const { client } = await open();
      const n = Number(await client.getBlockNumber({ cacheTime: 0 }));
      const b = await block(n);
      // A load-balanced provider may answer the number from one node and the block from another.
      if (b === null)
        throw new Error(`the node names block ${n} its head but has no such block; the next round asks again`);
      return b;
    },
    async blockHash(n) {
      return (await block(n))?.hash ?? null;
    },
    async scan(range: ScanRange, addresses, assets) {
      const out: ChainObservation[] = [];
      if (range.from > range.to || addresses.size === 0) return out;
      const watched = [...addresses] as `0x${string}`[];
      const list = assets.filter((a) => a.contract !== null);
      const coin = assets.find((a) => a.contract === null);
      // Logs carry no parent hash: with tokens only, one header says whether the range follows the kept block.
      if (coin === undefined && expectedParent(range) !== undefined) {
        const first = await block(range.from);
        if (first === null) throw new ChainMoved(`block ${range.from} is gone while it was scanned`);
        checkBelow(range, first.parent, `eth_getBlockByNumber ${range.from}`);
      }
      if (list.length > 0) await tokens(range.from, range.to, watched, list, out);
      const times = new Map<number, { hash: Hash; time: number }>();
      if (coin !== undefined) await native(range, addresses, coin, out, times);
      // The time of each block a log is in, and proof the log's block is still that block.
      for (const o of out) {
        let b = times.get(o.block.number);
        if (b === undefined) {
          const got = await block(o.block.number);
          if (got === null) throw new ChainMoved(`block ${o.block.number} is gone while it was scanned`);
          b = { hash: got.hash as Hash, time: got.time };
          times.set(o.block.number, b);
        }
        if (b.hash !== o.block.hash) throw new ChainMoved(`block ${o.block.number} changed while it was scanned`);
        o.block = { ...o.block, time: b.time };
      }
      return out;
    },
    normalizeAddress: (address) => address.toLowerCase(),
    scanLimit: (assets) => (assets.some((a) => a.contract === null) ? Math.min(chunk, nativeBlocks) : maxChunk),
    close() {
      const r = rpc;
      rpc = undefined;
      void r?.then((c) => c.close()).catch(() => undefined);
    },
  };
}
