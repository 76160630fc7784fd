import type { FamilyName } from '../../chain-families/index.js';

/**
 * The one seam between the generic chain watcher and a chain family (evm, btc, tron).
 *
 * The generic part owns everything that is the same for every chain: the lease per chain, the
 * loop and its back-off, the durable cursor, the record of the blocks it relied on, the
 * reorganisation check, confirmations, retractions, health, metrics, routes, CLI and console.
 * An adapter only talks to one node (or public API) and turns its answers into these shapes.
 * Adapters never touch the store and never decide confirmations.
 */

/** A block as the watcher records it: enough to notice it was replaced. */
export interface BlockRef {
  number: number;
  /** As the chain spells it (0x-prefixed for EVM, bare hex for Bitcoin and TRON). */
  hash: string;
  /** When the block was made, seconds since 1970, where the adapter knows it (shown as the transfer's blockTime). */
  time?: number | undefined;
}

/** An asset the watcher follows on a chain: the native coin, or a token contract. */
export interface WatchedAsset {
  /** hostpay's asset symbol (BTC, ETH, TRX, USDT, …). */
  asset: string;
  /** null: the chain's native coin; else the token contract as the adapter spells it. */
  contract: string | null;
  decimals: number;
}

/** One payment seen on chain to a deposit address. */
export interface ChainObservation {
  txHash: string;
  /** Position within the transaction: EVM log index, Bitcoin output index (vout), TRON log index
   * (or 0 for a TRX transfer). With the chain and txHash it identifies the payment (idempotent reports). */
  index: number;
  /** The deposit address, normalised by `normalizeAddress`. */
  to: string;
  asset: string;
  /** Amount in the asset's smallest unit (satoshis, wei, sun, token base units): exact. */
  baseUnits: bigint;
  block: BlockRef;
}

export interface ScanRange {
  from: number;
  to: number;
  /**
   * The block the watcher kept at `from - 1`, when it kept one: the range's first block must name
   * its hash as parent, else the adapter throws `BrokenLink` (that kept block is no longer the
   * node's chain, whatever the node answers for its height).
   */
  below?: BlockRef | undefined;
}

export interface ChainAdapter {
  /** The chain family it serves, as `chains.family` names it (chain-families/). */
  readonly family: FamilyName;
  /**
   * What identifies the network the node serves: the EVM chain id as decimal text, the genesis
   * block hash for Bitcoin and TRON. The watcher refuses a node whose answer differs from the
   * one configured (a node of another network never reports a payment).
   */
  networkId(): Promise<string>;
  /** The newest block the node offers (for TRON: the newest solidified block is also fine). */
  head(): Promise<BlockRef>;
  /** The hash of the block at this height on the node's current chain; null: the node has no such block (yet). */
  blockHash(number: number): Promise<string | null>;
  /**
   * Payments in blocks `from..to` (inclusive) to any of `addresses`, in the given assets. Each
   * observation names its block (number and hash). The adapter may fetch the range in pieces; it
   * throws ChainMoved if the chain changed under it (a block's parent not the previous block's
   * hash), and BrokenLink if the first block does not follow `range.below`.
   */
  scan(range: ScanRange, addresses: ReadonlySet<string>, assets: readonly WatchedAsset[]): Promise<ChainObservation[]>;
  /** Payments waiting in the mempool (0 confirmations), where the adapter can see them; optional. */
  pending?(addresses: ReadonlySet<string>, assets: readonly WatchedAsset[]): Promise<Omit<ChainObservation, 'block'>[]>;
  /** An address as stored and compared: lower case for EVM and bech32, unchanged for base58 (case matters). */
  normalizeAddress(address: string): string;
  /**
   * Most blocks the watcher hands to one `scan` (it scans the next range in the next round).
   * Default 100. An adapter that fetches every block whole keeps this small.
   */
  scanLimit?(assets: readonly WatchedAsset[]): number;
  /** Lets go of connections (sockets, agents) when the watch changes or the watcher stops. */
  close?(): void;
}

/** Thrown by an adapter when the chain changed while it scanned: nothing is saved, the next round looks again. */
export class ChainMoved extends Error {
  override readonly name: string = 'ChainMoved';
}

/**
 * Thrown by an adapter when the range's first block does not follow the block the watcher kept
 * below it (`ScanRange.below`): the node's chain no longer holds that block, so the watcher takes
 * it as replaced (a reorganisation) and credits nothing from the range.
 */
export class BrokenLink extends ChainMoved {
  override readonly name: string = 'BrokenLink';
  constructor(
    /** The height of the kept block the range does not follow. */
    readonly below: number,
    /** The parent the range's first block names instead. */
    readonly parent: string,
    message: string,
  ) {
    super(message);
  }
}

/** The parent the range's first block must name (the kept block at `from - 1`), if the watcher kept one. */
export function expectedParent(range: ScanRange): BlockRef | undefined {
  return range.below !== undefined && range.below.number === range.from - 1 ? range.below : undefined;
}

/** Throws BrokenLink when the range's first block (`parent` its parent's hash) does not follow `range.below`. */
export function checkBelow(range: ScanRange, parent: string | null, what: string): void {
  const below = expectedParent(range);
  if (below === undefined || parent === below.hash) return;
  throw new BrokenLink(
    below.number,
    parent ?? 'none',
    `${what}: block ${range.from} follows ${parent ?? 'no block'}, not the kept block ${below.number} (${below.hash}): the node's chain no longer holds it`,
  );
}
