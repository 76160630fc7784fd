import type { Block, Hash } from 'viem';
import { isHostpayError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { ChainPort } from '../checkouts/watch-targets.js';
import { blockOf, tokensOf, type WatchRow } from './config.js';
import type { EvmWatchMetrics } from './metrics.js';
import type { Rpc } from './adapters/evm/rpc.js';

/** The chain changed under a round (a reorganisation while scanning): nothing is saved, the next round looks again. */
export class ChainMoved extends Error {
  override readonly name = 'ChainMoved';
}

/** The watcher lost the chain's lease mid-round (it paused past the expiry); the new holder carries on. */
export class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/** Per-chain scan sizes, adapted as the node answers. */
export interface ChainState {
  /** Blocks per eth_getLogs call: halved when the provider refuses a range, grown back after successes. */
  chunk: number;
  maxChunk: number;
  /** Blocks fetched with their transactions per round when the native coin is watched. */
  nativeBlocks: number;
}

export interface RoundDeps {
  store: Store;
  /** What the watcher reads of and reports to the checkouts feature. */
  checkouts: ChainPort;
  metrics: EvmWatchMetrics;
  owner: string;
  now: () => number;
  leaseMs: number;
  log: { warn(msg: string): void };
  /** Tests: runs after the transfers are reported and before the cursor is saved (a crash there). */
  beforeCursorSave?: (() => void | Promise<void>) | undefined;
}

export interface RoundResult {
  head: number;
  /** Blocks scanned this round (from > to: none). */
  from: number;
  to: number;
  reported: number;
  retracted: number;
  caughtUp: boolean;
}

interface Observation {
  kind: 'token' | 'native';
  txHash: Hash;
  index: number;
  to: string;
  asset: string;
  amount: string;
  blockNumber: number;
  blockHash: Hash;
}

const ADDRESS_GROUP = 100;
/** The watcher's reports and retractions are audited like an operator's, under this name. */
const WATCHER_AUDIT = { operator: 'evm-watch' } as const;
const RANGE_ERROR = /range|too many|exceed|limit|too large|response size|max.*results|10000 /i;

/**
 * One round for one chain, with the lease held: check the blocks relied on are still the
 * chain's (else retract what came from the replaced ones and scan again from the fork), scan the
 * next range for token transfers (eth_getLogs, Transfer topic, `to` among the live deposit
 * addresses) and native payments (the range's blocks with their transactions), report each
 * through the transfers code, raise the confirmations of transfers still short of the depth,
 * and save the cursor. Reports are idempotent (chain + tx + log index), so a round cut short
 * anywhere is simply run again.
 */
export async function runRound(deps: RoundDeps, w: WatchRow, rpc: Rpc, scan: ChainState): Promise<RoundResult> {
  const chain = w.symbol;
  const nodeChain = await rpc.chainId();
  const expected = blockOf(w.node_chain_id);
  if (expected !== null && expected !== nodeChain) {
    throw new Error(
      `the node answers for chain id ${nodeChain}, but ${chain} was watched on chain id ${expected} until now: point rpcUrl back at a ${chain} node, or set startBlock to start over on this one`,
    );
  }
  const head = Number(await rpc.client.getBlockNumber({ cacheTime: 0 }));
  const targets = await deps.checkouts.liveTargets(w.chain_id, w.confirmations_required, deps.now());
  const stored = blockOf(w.cursor_block);
  const start =
    stored ?? (blockOf(w.start_block) === null ? Math.max(-1, head - targets.depth) : blockOf(w.start_block)! - 1);
  const undone = await undoReplacedBlocks(deps, w, rpc, head, start);
  const cursor = Math.min(undone.cursor, head);

  const from = cursor + 1;
  const native = w.native_asset;
  let to = Math.min(head, from + (native === null ? scan.chunk : Math.min(scan.chunk, scan.nativeBlocks)) - 1);
  const observations: Observation[] = [];
  const blocks = new Map<number, { hash: Hash; timestamp: bigint }>();
  const watched = [...targets.addresses] as `0x${string}`[];
  if (from <= to && watched.length > 0) {
    to = await scanTokens(w, rpc, scan, watched, from, to, observations);
    if (native !== null) await scanNative(w, rpc, native, targets.addresses, from, to, observations, blocks);
  }
  if (from <= to) await keepBlocks(deps, w, rpc, to, observations, blocks);
  const reported = await reportObservations(deps, chain, head, observations, blocks);
  await raiseConfirmations(deps, w, head, targets.depth);

  await deps.beforeCursorSave?.();
  const scanned = from <= to ? to : cursor;
  await saveCursor(deps, w, { scanned, head, nodeChain, depth: targets.depth });
  const { metrics } = deps;
  metrics.head.set({ chain }, head);
  metrics.cursor.set({ chain }, scanned);
  metrics.behind.set({ chain }, Math.max(0, head - scanned));
  return { head, from, to, reported, retracted: undone.retracted, caughtUp: scanned >= head };
}

/**
 * Reorganisations: walks the kept blocks down from the top until one is still the chain's; the
 * transfers of the replaced ones are retracted and the cursor goes back to the fork.
 */
async function undoReplacedBlocks(
  deps: RoundDeps,
  w: WatchRow,
  rpc: Rpc,
  head: number,
  start: number,
): Promise<{ cursor: number; retracted: number }> {
  const { store, checkouts, metrics } = deps;
  const db = store.db;
  const { client } = rpc;
  const chain = w.symbol;
  let cursor = start;
  let retracted = 0;
  const kept = await db
    .selectFrom('evm_watch_blocks')
    .select(['number', 'hash'])
    .where('chain_id', '=', w.chain_id)
    .orderBy('number', 'desc')
    .execute();
  const replaced: { number: number; hash: string }[] = [];
  // Kept blocks above this node's head: a load-balanced provider answers from a node a few blocks
  // behind now and then, which proves nothing, so only another block at the same height counts as
  // a replacement (and takes every kept block above it along).
  const unseen: { number: number; hash: string }[] = [];
  let anchor: number | null = null;
  for (const k of kept) {
    const n = Number(k.number);
    if (n > head) {
      unseen.push({ number: n, hash: k.hash });
      continue;
    }
    const canonical = await client
      .getBlock({ blockNumber: BigInt(n) })
      .catch((err: Error) => (err.name === 'BlockNotFoundError' ? null : Promise.reject(err)));
    // At or below the head the block must exist: "not found" is a node contradicting its own head
    // (two backends at different heights). Nothing is decided on it, neither a retraction nor the
    // confirmations of the transfers in that block: the round fails and the next one asks again.
    if (canonical === null)
      throw new Error(
        `the node has no block ${n} although its head is ${head} (a provider answering from nodes at different heights?); nothing was changed, the next round asks again`,
      );
    // A block still on the chain vouches for every block below it (each names its parent).
    if (canonical.hash === k.hash) {
      anchor = n;
      break;
    }
    replaced.push(...unseen.splice(0), { number: n, hash: k.hash });
  }
  if (replaced.length > 0) {
    metrics.reorgs.inc({ chain }, replaced.length);
    const orphans = await checkouts.transfersInBlocks(
      w.chain_id,
      replaced.map((r) => r.hash),
    );
    for (const id of orphans) {
      await checkouts.retractTransfer(id, WATCHER_AUDIT);
      retracted++;
    }
    metrics.retracted.inc({ chain }, retracted);
    await store.writeTransaction((trx) =>
      trx
        .deleteFrom('evm_watch_blocks')
        .where('chain_id', '=', w.chain_id)
        .where(
          'number',
          'in',
          replaced.map((r) => r.number),
        )
        .execute(),
    );
    cursor = Math.min(cursor, anchor ?? Math.min(...replaced.map((r) => r.number)) - 1);
    deps.log.warn(
      `evm watch ${chain}: ${replaced.length} block(s) from ${Math.min(...replaced.map((r) => r.number))} were replaced; ${retracted} transfer(s) retracted, scanning again from block ${cursor + 1}`,
    );
  }
  return { cursor, retracted };
}

/**
 * Token transfers to the watched addresses in [from, end] (eth_getLogs, Transfer topic). A
 * provider that caps the range gets half as many blocks, remembered in `scan`: returns the end
 * of the range as scanned.
 */
async function scanTokens(
  w: WatchRow,
  rpc: Rpc,
  scan: ChainState,
  watched: `0x${string}`[],
  from: number,
  end: number,
  observations: Observation[],
): Promise<number> {
  const { client, viem } = rpc;
  const tokens = tokensOf(w);
  let to = end;
  if (tokens.length > 0) {
    const event = viem.parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
    const byContract = new Map(tokens.map((t) => [t.contract, t]));
    for (;;) {
      try {
        for (let i = 0; i < watched.length; i += ADDRESS_GROUP) {
          const logs = await client.getLogs({
            address: tokens.map((t) => t.contract as `0x${string}`),
            event,
            args: { to: watched.slice(i, i + ADDRESS_GROUP) },
            fromBlock: BigInt(from),
            toBlock: BigInt(to),
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
              log.blockNumber === null
            )
              continue;
            if (log.args.value === 0n) continue;
            observations.push({
              kind: 'token',
              txHash: log.transactionHash,
              index: log.logIndex,
              to: log.args.to,
              asset: token.asset,
              amount: viem.formatUnits(log.args.value, token.decimals),
              blockNumber: Number(log.blockNumber),
              blockHash: log.blockHash,
            });
          }
        }
        if (to - from + 1 >= scan.chunk) scan.chunk = Math.min(scan.maxChunk, Math.ceil(scan.chunk * 1.5));
        break;
      } catch (err) {
        const text = `${(err as Error).message} ${(err as { details?: string }).details ?? ''}`;
        if (to <= from || !RANGE_ERROR.test(text)) throw err;
        // The provider caps the range (or the answer): half as many blocks, and remember it.
        scan.chunk = Math.max(1, Math.floor((to - from + 1) / 2));
        to = from + scan.chunk - 1;
        observations.length = 0;
      }
    }
  }

  return to;
}

/** Native payments to the watched addresses: the range's blocks with their transactions, successful receipts only. */
async function scanNative(
  w: WatchRow,
  rpc: Rpc,
  native: string,
  addresses: Set<string>,
  from: number,
  to: number,
  observations: Observation[],
  blocks: Map<number, { hash: Hash; timestamp: bigint }>,
): Promise<void> {
  const { client, viem } = rpc;
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  for (let i = 0; i < numbers.length; i += 8) {
    const got = await Promise.all(
      numbers.slice(i, i + 8).map((n) => client.getBlock({ blockNumber: BigInt(n), includeTransactions: true })),
    );
    for (const block of got) {
      blocks.set(Number(block.number), { hash: block.hash, timestamp: block.timestamp });
      for (const tx of block.transactions) {
        if (tx.to === null || tx.value === 0n || !addresses.has(tx.to.toLowerCase())) continue;
        // A reverted transaction moved nothing: only a successful receipt counts.
        const receipt = await client.getTransactionReceipt({ hash: tx.hash });
        if (receipt.status !== 'success') continue;
        observations.push({
          kind: 'native',
          txHash: tx.hash,
          index: 0,
          to: tx.to,
          asset: native,
          amount: viem.formatUnits(tx.value, w.native_decimals),
          blockNumber: Number(block.number),
          blockHash: block.hash,
        });
      }
    }
  }
}

/**
 * The blocks relied on (the range's end and every block an observation is in): checked against
 * what was scanned, then kept before anything is reported from them.
 */
async function keepBlocks(
  deps: RoundDeps,
  w: WatchRow,
  rpc: Rpc,
  to: number,
  observations: Observation[],
  blocks: Map<number, { hash: Hash; timestamp: bigint }>,
): Promise<void> {
  const { store } = deps;
  const { client } = rpc;
  const chain = w.symbol;
  const needed = new Set<number>([to, ...observations.map((o) => o.blockNumber)]);
  for (const n of needed) {
    if (blocks.has(n)) continue;
    const b: Block = await client.getBlock({ blockNumber: BigInt(n) });
    blocks.set(n, { hash: b.hash!, timestamp: b.timestamp });
  }
  for (const o of observations)
    if (blocks.get(o.blockNumber)!.hash !== o.blockHash)
      throw new ChainMoved(`block ${o.blockNumber} changed while ${chain} was scanned`);
  // Kept before anything is reported from them: a report from a block the store does not
  // know could never be retracted.
  await store.writeTransaction(async (trx) => {
    await holdLease(trx, deps, w.chain_id);
    const rows = [...needed].map((n) => ({ chain_id: w.chain_id, number: n, hash: blocks.get(n)!.hash }));
    await trx
      .insertInto('evm_watch_blocks')
      .values(rows)
      .onConflict((oc) => oc.columns(['chain_id', 'number']).doNothing())
      .execute();
    const known = await trx
      .selectFrom('evm_watch_blocks')
      .select(['number', 'hash'])
      .where('chain_id', '=', w.chain_id)
      .where('number', 'in', [...needed])
      .execute();
    for (const k of known)
      if (blocks.get(Number(k.number))?.hash !== k.hash)
        throw new ChainMoved(`block ${k.number} of ${chain} is not the one seen before`);
  });
}

/** Reports what was seen through the transfers code: returns how many were first reports. */
async function reportObservations(
  deps: RoundDeps,
  chain: string,
  head: number,
  observations: Observation[],
  blocks: Map<number, { hash: Hash; timestamp: bigint }>,
): Promise<number> {
  const { metrics } = deps;
  let reported = 0;
  for (const o of observations) {
    const timestamp = blocks.get(o.blockNumber)!.timestamp;
    const created = await report(deps, {
      chain,
      txHash: o.txHash,
      index: o.index,
      toAddress: o.to,
      asset: o.asset,
      amount: o.amount,
      confirmations: head - o.blockNumber + 1,
      blockHash: o.blockHash,
      blockTime: new Date(Number(timestamp) * 1000).toISOString(),
    });
    if (created) {
      reported++;
      metrics.transfers.inc({ chain, kind: o.kind });
    }
  }

  return reported;
}

/** Confirmations of transfers still short of the depth, raised as blocks arrive. */
async function raiseConfirmations(deps: RoundDeps, w: WatchRow, head: number, depth: number): Promise<void> {
  const { store, checkouts } = deps;
  const db = store.db;
  const chain = w.symbol;
  const short = await checkouts.shortTransfers(w.chain_id, depth);
  const heights =
    short.length === 0
      ? new Map<string, number>()
      : new Map(
          (
            await db
              .selectFrom('evm_watch_blocks')
              .select(['hash', 'number'])
              .where('chain_id', '=', w.chain_id)
              .where('hash', 'in', [...new Set(short.map((t) => t.blockHash))])
              .execute()
          ).map((b) => [b.hash, Number(b.number)]),
        );
  for (const t of short) {
    const number = heights.get(t.blockHash);
    // Only transfers from blocks this watcher keeps: it cannot vouch for the others.
    if (number === undefined) continue;
    const confirmations = head - number + 1;
    if (confirmations <= t.confirmations) continue;
    await report(deps, { chain, ...t, confirmations });
  }
}

/** Saves where the scan got to (with the lease held) and forgets blocks below the depth. */
async function saveCursor(
  deps: RoundDeps,
  w: WatchRow,
  at: { scanned: number; head: number; nodeChain: number; depth: number },
): Promise<void> {
  const { scanned, head, nodeChain, depth } = at;
  await deps.store.writeTransaction(async (trx) => {
    await holdLease(trx, deps, w.chain_id);
    await trx
      .updateTable('evm_watches')
      .set({
        cursor_block: scanned,
        head_block: head,
        node_chain_id: nodeChain,
        last_round_at: new Date(deps.now()).toISOString(),
        last_error: null,
      })
      .where('chain_id', '=', w.chain_id)
      .execute();
    // Blocks below the depth (and a margin) can no longer change anything that counts.
    await trx
      .deleteFrom('evm_watch_blocks')
      .where('chain_id', '=', w.chain_id)
      .where('number', '<', scanned - depth - 64)
      .execute();
  });
}

/** Renews the lease inside the transaction that relies on it; throws LeaseLost when another instance holds it now. */
export async function holdLease(
  trx: Store['db'],
  deps: Pick<RoundDeps, 'owner' | 'now' | 'leaseMs'>,
  chainId: string,
): Promise<void> {
  const now = new Date(deps.now()).toISOString();
  const until = new Date(deps.now() + deps.leaseMs).toISOString();
  const r = await trx
    .updateTable('evm_watches')
    .set({ lease_owner: deps.owner, lease_expires_at: until })
    .where('chain_id', '=', chainId)
    .where((eb) =>
      eb.or([eb('lease_owner', '=', deps.owner), eb('lease_owner', 'is', null), eb('lease_expires_at', '<', now)]),
    )
    .executeTakeFirst();
  if ((r.numUpdatedRows ?? 0n) === 0n) throw new LeaseLost(`another instance watches chain ${chainId} now`);
}

/** Through the transfers code path (the same as POST /admin/v1/transfers); true for a first report. */
async function report(deps: RoundDeps, r: Parameters<ChainPort['reportTransfer']>[0]): Promise<boolean> {
  try {
    return (await deps.checkouts.reportTransfer(r, WATCHER_AUDIT)).created;
  } catch (err) {
    // A report the transfers code refuses (say, an amount finer than the asset) is a fact about
    // that transfer, not about the node: it is logged and the scan goes on.
    if (!isHostpayError(err)) throw err;
    deps.log.warn(`evm watch ${r.chain}: transfer ${r.txHash}:${r.index} not recorded: ${err.code} ${err.message}`);
    return false;
  }
}
