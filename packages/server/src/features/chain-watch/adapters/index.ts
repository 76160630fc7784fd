/**
 * The adapter registry: which adapter kind talks to which kind of node, and how to make one.
 *
 * Every factory takes the same options (`AdapterOptions`) and returns a `ChainAdapter`
 * (../adapter.ts):
 *
 *   interface AdapterOptions {
 *     url: string;                 // the node's base URL as the operator set it (opened from its sealed
 *                                  // column; never log it: it may carry a key)
 *     apiKey?: string | undefined; // the optional API key / credentials (sealed at rest), e.g.
 *                                  // TronGrid's TRON-PRO-API-KEY, Bitcoin Core's "user:password"
 *     fetch: (input: string | URL, init?: RequestInit) => Promise<Response>;
 *                                  // THE way to reach the node: the outbound guard checks every
 *                                  // connection (loopback only on a sandbox server or with
 *                                  // allowPrivateRpc), answers capped at 64 MB. Default method is
 *                                  // POST: pass `method: 'GET'` for GETs. Pass `signal:
 *                                  // AbortSignal.timeout(timeoutMs)` on every call.
 *     checkHost: (host: string) => Promise<void>;
 *                                  // the same guard for a connection the fetch does not make (a websocket)
 *     timeoutMs: number;           // deadline of one call to the node
 *     close?: () => void;          // lets go of the fetch's sockets (call it from the adapter's close())
 *   }
 *   type AdapterFactory = (opts: AdapterOptions) => ChainAdapter;
 *
 * A factory must not do I/O (the watcher makes the adapter when a round needs it and asks
 * networkId() first). Adding a kind is one line in `ADAPTERS` below, and its name in its chain
 * family's `adapterKinds` (chain-families/), which says which chains it may watch and the default.
 */
import type { AdapterFactory } from './options.js';
import { bitcoinCoreAdapter, esploraAdapter } from './bitcoin/index.js';
import { evmAdapter } from './evm/index.js';
import { tronAdapter } from './tron/index.js';

export type { AdapterFactory, AdapterOptions } from './options.js';

/** Every adapter kind a watch may name (an unmerged one is refused when a watch is set). */
export const ADAPTER_KINDS = ['evm-rpc', 'esplora', 'bitcoin-core', 'tron-http'] as const;
export type AdapterKind = (typeof ADAPTER_KINDS)[number];

/** The adapters this build has. */
export const ADAPTERS: Record<AdapterKind, AdapterFactory> = {
  'evm-rpc': evmAdapter,
  esplora: esploraAdapter,
  'bitcoin-core': bitcoinCoreAdapter,
  'tron-http': tronAdapter,
};

export const isAdapterKind = (k: string): k is AdapterKind => (ADAPTER_KINDS as readonly string[]).includes(k);
