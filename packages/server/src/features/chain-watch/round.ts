import { holdLease as holdRowLease, LeaseLost } from '../../cluster/leased-loops.js';
import type { Store } from '../../store/store.js';
import { BrokenLink, ChainMoved, type BlockRef, type ChainAdapter, type ChainObservation } from './adapter.js';
import { blockOf, type WatchRow } from './config.js';
import { followPayouts } from './follow-payouts.js';
import { raiseConfirmations, reportObservations, WATCHER_AUDIT, watchedAssets } from './reports.js';
import type { RoundDeps } from './round-deps.js';

export { ChainMoved, LeaseLost };
export { unitsText, watchedAssets } from './reports.js';

export interface RoundResult {
  head: number;
  /** Blocks scanned this round (from > to: none). */
  from: number;
  to: number;
  reported: number;
  retracted: number;
  caughtUp: boolean;
  /** Set when the range did not follow the block kept below it: why (the round went back to the fork instead). */
  brokenLink?: string | undefined;
}

/**
 * One round for one chain, with the lease held: check the node serves the watched network, check
 * the blocks relied on are still the chain's (else retract what came from the replaced ones and
 * scan again from the fork), scan the next range through the adapter, keep the blocks relied on,
 * report each payment through the checkouts feature's port, raise the confirmations of payments
 * still short of the depth, and save the cursor. Reports are idempotent (chain + tx + index), so
 * a round cut short anywhere is simply run again.
 */
export async function runRound(deps: RoundDeps, w: WatchRow, adapter: ChainAdapter): Promise<RoundResult> {
  const chain = w.symbol;
  const network = await adapter.networkId();
  if (w.network_id !== null && w.network_id !== network) {
    throw new Error(
      `the node serves network ${network}, but ${chain} is watched on network ${w.network_id}: point the node URL back at a ${chain} node, or set networkId (and startBlock) to start over on this one`,
    );
  }
  const head = (await adapter.head()).number;
  const targets = await deps.checkouts.liveTargets(w.chain_id, w.confirmations_required, deps.now(), (a) =>
    adapter.normalizeAddress(a),
  );
  const stored = blockOf(w.cursor_block);
  const start =
    stored ?? (blockOf(w.start_block) === null ? Math.max(-1, head - targets.depth) : blockOf(w.start_block)! - 1);
  const undone = await undoReplacedBlocks(deps, w, adapter, head, start);
  const cursor = Math.min(undone.cursor, head);

  const assets = watchedAssets(w);
  const from = cursor + 1;
  const to = Math.min(head, from + Math.max(1, adapter.scanLimit?.(assets) ?? 100) - 1);
  let observations: ChainObservation[] = [];
  if (from <= to && targets.addresses.size > 0 && assets.length > 0) {
    // The range must follow the block kept below it, not only link up within itself.
    const below = await keptBlock(deps, w, cursor);
    try {
      observations = await adapter.scan({ from, to, below }, targets.addresses, assets);
    } catch (err) {
      if (!(err instanceof BrokenLink)) throw err;
      return relink(deps, w, adapter, { head, cursor, network, depth: targets.depth, broken: err, undone });
    }
  }
  if (from <= to) await keepBlocks(deps, w, adapter, to, observations);
  // Confirmations count up to the last block scanned and kept, never up to a head the node only
  // names: a node that lies about its head (or runs ahead of what it can show) raises nothing.
  const scanned = from <= to ? to : cursor;
  const decimals = new Map(assets.map((a) => [a.asset, a.decimals]));
  const reported = await reportObservations(deps, chain, scanned, observations, decimals);
  await raiseConfirmations(deps, w, scanned, targets.depth);
  for (const port of deps.payouts ?? []) await followPayouts(port, w, adapter, scanned);

  await deps.beforeCursorSave?.();
  await saveCursor(deps, w, { scanned, head, network, depth: targets.depth });
  const { metrics } = deps;
  metrics.head.set({ chain }, head);
  metrics.cursor.set({ chain }, scanned);
  metrics.behind.set({ chain }, Math.max(0, head - scanned));
  return { head, from, to, reported, retracted: undone.retracted, caughtUp: scanned >= head };
}

/** The block kept at this height, if the watcher kept one (the range above must follow it). */
async function keptBlock(deps: RoundDeps, w: WatchRow, number: number): Promise<BlockRef | undefined> {
  const row = await deps.store.db
    .selectFrom('chain_watch_blocks')
    .select('hash')
    .where('chain_id', '=', w.chain_id)
    .where('number', '=', number)
    .executeTakeFirst();
  return row === undefined ? undefined : { number, hash: row.hash };
}

/**
 * The range's first block does not follow the block kept below it: the node's chain no longer
 * holds that block, whatever it answers for its height. It goes the reorganisation's way (it and
 * every kept block above it replaced, their transfers retracted, the walk going on below it), the
 * cursor is saved at the fork, and nothing of the range is reported. Not a good round either: the
 * watcher counts it as failed (the node contradicts itself, or moved between two answers).
 */
async function relink(
  deps: RoundDeps,
  w: WatchRow,
  adapter: ChainAdapter,
  at: {
    head: number;
    cursor: number;
    network: string;
    depth: number;
    broken: BrokenLink;
    undone: { retracted: number };
  },
): Promise<RoundResult> {
  const { head, network, depth, broken } = at;
  deps.log.warn(`chain watch ${w.symbol}: ${broken.message}`);
  const redone = await undoReplacedBlocks(deps, w, adapter, head, at.cursor, broken.below);
  await saveCursor(deps, w, { scanned: redone.cursor, head, network, depth, good: false });
  const { metrics } = deps;
  metrics.head.set({ chain: w.symbol }, head);
  metrics.cursor.set({ chain: w.symbol }, redone.cursor);
  metrics.behind.set({ chain: w.symbol }, Math.max(0, head - redone.cursor));
  const retracted = at.undone.retracted + redone.retracted;
  return {
    head,
    from: redone.cursor + 1,
    to: redone.cursor,
    reported: 0,
    retracted,
    caughtUp: false,
    brokenLink: broken.message,
  };
}

/**
 * Reorganisations: walks the kept blocks down from the top until one is still the chain's; the
 * transfers of the replaced ones are retracted and the cursor goes back to the fork. `brokenAt`:
 * a kept block the node's chain was shown not to hold (the block above names another parent), so
 * it and every kept block above it count as replaced without asking.
 */
async function undoReplacedBlocks(
  deps: RoundDeps,
  w: WatchRow,
  adapter: ChainAdapter,
  head: number,
  start: number,
  brokenAt?: number,
): Promise<{ cursor: number; retracted: number }> {
  const { store, checkouts, metrics } = deps;
  const chain = w.symbol;
  let cursor = start;
  let retracted = 0;
  const kept = await store.db
    .selectFrom('chain_watch_blocks')
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
    if (brokenAt !== undefined && n >= brokenAt) {
      replaced.push(...unseen.splice(0), { number: n, hash: k.hash });
      continue;
    }
    if (n > head) {
      unseen.push({ number: n, hash: k.hash });
      continue;
    }
    const canonical = await adapter.blockHash(n);
    // At or below the head the block must exist: "not found" is a node contradicting its own head
    // (two backends at different heights). Nothing is decided on it, neither a retraction nor the
    // confirmations of the transfers in that block: the round fails and the next one asks again.
    if (canonical === null)
      throw new Error(
        `the node has no block ${n} although its head is ${head} (a provider answering from nodes at different heights?); nothing was changed, the next round asks again`,
      );
    // A block still on the chain vouches for every block below it (each names its parent).
    if (canonical === k.hash) {
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
        .deleteFrom('chain_watch_blocks')
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
      `chain watch ${chain}: ${replaced.length} block(s) from ${Math.min(...replaced.map((r) => r.number))} were replaced; ${retracted} transfer(s) retracted, scanning again from block ${cursor + 1}`,
    );
  }
  return { cursor, retracted };
}

/**
 * The blocks relied on (the range's end and every block a payment is in): asked again after the
 * scan (a payment's block must still be the one it was seen in), then kept before anything is
 * reported from them.
 */
async function keepBlocks(
  deps: RoundDeps,
  w: WatchRow,
  adapter: ChainAdapter,
  to: number,
  observations: ChainObservation[],
): Promise<void> {
  const chain = w.symbol;
  const hashes = new Map<number, string>();
  for (const o of observations) {
    if (!hashes.has(o.block.number)) {
      const now = await adapter.blockHash(o.block.number);
      if (now === null) throw new ChainMoved(`block ${o.block.number} of ${chain} is gone while it was scanned`);
      hashes.set(o.block.number, now);
    }
    if (hashes.get(o.block.number) !== o.block.hash)
      throw new ChainMoved(`block ${o.block.number} changed while ${chain} was scanned`);
  }
  if (!hashes.has(to)) {
    const end = await adapter.blockHash(to);
    if (end === null) throw new ChainMoved(`block ${to} of ${chain} is gone while it was scanned`);
    hashes.set(to, end);
  }
  const needed = [...hashes.keys()];
  // Kept before anything is reported from them: a report from a block the store does not
  // know could never be retracted.
  await deps.store.writeTransaction(async (trx) => {
    await holdLease(trx, deps, w.chain_id);
    await trx
      .insertInto('chain_watch_blocks')
      .values(needed.map((n) => ({ chain_id: w.chain_id, number: n, hash: hashes.get(n)! })))
      .onConflict((oc) => oc.columns(['chain_id', 'number']).doNothing())
      .execute();
    const known = await trx
      .selectFrom('chain_watch_blocks')
      .select(['number', 'hash'])
      .where('chain_id', '=', w.chain_id)
      .where('number', 'in', needed)
      .execute();
    for (const k of known)
      if (hashes.get(Number(k.number)) !== k.hash)
        throw new ChainMoved(`block ${k.number} of ${chain} is not the one seen before`);
  });
}

/** Saves where the scan got to (with the lease held) and forgets blocks below the depth. */
async function saveCursor(
  deps: RoundDeps,
  w: WatchRow,
  at: { scanned: number; head: number; network: string; depth: number; good?: boolean },
): Promise<void> {
  const { scanned, head, network, depth } = at;
  // A good round clears the last error; a round that only went back to a fork leaves it.
  const good = at.good !== false;
  await deps.store.writeTransaction(async (trx) => {
    await holdLease(trx, deps, w.chain_id);
    await trx
      .updateTable('chain_watches')
      .set({
        cursor_block: scanned,
        head_block: head,
        network_id: network,
        last_round_at: new Date(deps.now()).toISOString(),
        ...(good ? { last_error: null, failed_rounds: 0 } : {}),
      })
      .where('chain_id', '=', w.chain_id)
      .execute();
    // Blocks below the depth (and a margin) can no longer change anything that counts.
    await trx
      .deleteFrom('chain_watch_blocks')
      .where('chain_id', '=', w.chain_id)
      .where('number', '<', scanned - depth - 64)
      .execute();
  });
}

/** Renews the lease inside the transaction that relies on it; throws LeaseLost when another instance holds it now. */
export function holdLease(
  trx: Store['db'],
  deps: Pick<RoundDeps, 'owner' | 'now' | 'leaseMs'>,
  chainId: string,
): Promise<void> {
  return holdRowLease(trx, { table: 'chain_watches', key: 'chain_id' }, chainId, deps);
}
