import { isHostpayError } from '../../errors.js';
import type { ChainPort } from '../checkouts/watch-targets.js';
import type { ChainObservation, WatchedAsset } from './adapter.js';
import { tokensOf, type WatchRow } from './config.js';
import type { RoundDeps } from './round-deps.js';

/** The watcher's reports and retractions are audited like an operator's, under this name. */
export const WATCHER_AUDIT = { operator: 'chain-watch' } as const;

/** Every asset a watch follows: its tokens and, unless switched off, the chain's own coin. */
export function watchedAssets(w: WatchRow): WatchedAsset[] {
  const tokens: WatchedAsset[] = tokensOf(w).map((t) => ({
    asset: t.asset,
    contract: t.contract,
    decimals: t.decimals,
  }));
  return w.native_asset === null
    ? tokens
    : [...tokens, { asset: w.native_asset, contract: null, decimals: w.native_decimals }];
}

/** Base units as an exact decimal text in the asset (no floating point anywhere). */
export function unitsText(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const s = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac === '' ? '' : `.${frac}`}`;
}

/** Reports what was seen through the checkouts feature's port: returns how many were first reports. */
export async function reportObservations(
  deps: RoundDeps,
  chain: string,
  top: number,
  observations: ChainObservation[],
  decimals: Map<string, number>,
): Promise<number> {
  let reported = 0;
  for (const o of observations) {
    const places = decimals.get(o.asset);
    if (places === undefined || o.baseUnits <= 0n) continue;
    const created = await report(deps, {
      chain,
      txHash: o.txHash,
      index: o.index,
      toAddress: o.to,
      asset: o.asset,
      amount: unitsText(o.baseUnits, places),
      confirmations: top - o.block.number + 1,
      blockHash: o.block.hash,
      ...(o.block.time === undefined ? {} : { blockTime: new Date(o.block.time * 1000).toISOString() }),
    });
    if (created) {
      reported++;
      deps.metrics.transfers.inc({ chain, asset: o.asset });
    }
  }
  return reported;
}

/** Confirmations of transfers still short of the depth, raised as blocks are scanned (up to `top`, the last block scanned). */
export async function raiseConfirmations(deps: RoundDeps, w: WatchRow, top: number, depth: number): Promise<void> {
  const { store, checkouts } = deps;
  const chain = w.symbol;
  const short = await checkouts.shortTransfers(w.chain_id, depth);
  if (short.length === 0) return;
  const heights = new Map(
    (
      await store.db
        .selectFrom('chain_watch_blocks')
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
    const confirmations = top - number + 1;
    if (confirmations <= t.confirmations) continue;
    await report(deps, { chain, ...t, confirmations });
  }
}

/** Through the transfers code path (the same as POST /admin/v1/transfers); true for a first report. */
async function report(deps: RoundDeps, r: Parameters<ChainPort['reportTransfer']>[0]): Promise<boolean> {
  try {
    return (await deps.checkouts.reportTransfer(r, WATCHER_AUDIT)).created;
  } catch (err) {
    // A report the transfers code refuses (say, an amount finer than the asset) is a fact about
    // that transfer, not about the node: it is logged and the scan goes on.
    if (!isHostpayError(err)) throw err;
    deps.log.warn(`chain watch ${r.chain}: transfer ${r.txHash}:${r.index} not recorded: ${err.code} ${err.message}`);
    return false;
  }
}
