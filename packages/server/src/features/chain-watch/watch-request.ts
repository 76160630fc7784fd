// Apart from service.ts so that checks.ts, which service.ts imports, can name it without a loop.

/** An operator's request to set a chain's watch (PUT …/chains/:symbol/watch): what is left out stays as stored. */
export interface WatchRequest {
  /** The adapter that talks to the node; default by the chain's family (evm-rpc, esplora, tron-http). */
  kind?: string | undefined;
  /** The node's URL. Required for a new watch; left out, the stored URL stays. */
  rpcUrl?: string | undefined;
  /** An API key or credentials for the node (sealed); null removes it; left out, it stays. */
  apiKey?: string | null | undefined;
  /** The network the node must serve (EVM chain id in decimal, or genesis hash); null: learnt from the node; left out, it stays. */
  networkId?: string | null | undefined;
  tokens?: { asset: string; contract?: string | undefined; decimals?: number | undefined }[] | undefined;
  nativeAsset?: string | null | undefined;
  nativeDecimals?: number | undefined;
  confirmations?: number | undefined;
  pollIntervalMs?: number | undefined;
  allowPrivateRpc?: boolean | undefined;
  startBlock?: number | undefined;
  enabled?: boolean | undefined;
}
