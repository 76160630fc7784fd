/**
 * What the generic chain-watch contract suite needs of a chain to run against it: a node (a real
 * one such as anvil, or a local stand-in on 127.0.0.1 that answers with the provider's real answer
 * shapes) that it can pay through, mine on and reorganise. One implementation per adapter; the
 * contract suite (contract.ts) runs the same cases on each.
 */
export interface ChainHarness {
  /** The adapter family under test. */
  readonly family: 'evm' | 'btc' | 'tron';
  /** The adapter kind as the watch is configured with it (e.g. 'evm-rpc', 'esplora', 'bitcoin-core', 'tron-http'). */
  readonly kind: string;
  /** The catalog chain the watch is for (ETH, BTC, TRON, …) and the asset paid in the cases. */
  readonly chain: string;
  readonly asset: string;
  /** Starts the node or stand-in; its URL is on 127.0.0.1. `networkId` is what the adapter's networkId() answers. */
  start(): Promise<{ url: string; networkId: string; apiKey?: string }>;
  /** A payment of `baseUnits` of the asset to `to`, included in the next mined block. */
  pay(to: string, baseUnits: bigint): Promise<{ txHash: string }>;
  /** Mines `n` blocks (for TRON stand-ins: produces and solidifies them). */
  mine(n: number): Promise<void>;
  /** Replaces the newest `depth` blocks by a longer branch that does not hold their payments. */
  reorg(depth: number): Promise<void>;
  stop(): Promise<void>;
}
