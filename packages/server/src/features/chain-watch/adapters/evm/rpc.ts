import type { PublicClient } from 'viem';
import { lazyPromise } from '../../../../lazy.js';
import { bareHost } from '../../../../outbound/guard.js';
import { checkedRpcAddresses, rpcFetch, type RpcGuard } from '../../node-url.js';

export type Viem = typeof import('viem');

export interface Rpc {
  client: PublicClient;
  viem: Viem;
  /** eth_chainId, asked once per connection. */
  chainId(): Promise<number>;
  close(): void;
}

let viemModule: Promise<Viem> | undefined;
/** viem is loaded on the first watched chain, not at start-up: a server that watches nothing never pays for it. */
export const loadViem = (): Promise<Viem> => {
  viemModule ??= import('viem');
  return viemModule;
};

/** How an adapter reaches its node: the guarded fetch, the same guard for what the fetch does not carry (a websocket). */
export interface RpcTransport {
  fetch: (input: string | URL, init?: RequestInit) => Promise<Response>;
  checkHost: (host: string) => Promise<void>;
  /** Closes the fetch's sockets (when the transport owns them). */
  close?: (() => void) | undefined;
}

/**
 * A viem client for one node. http(s): every connection through the SSRF guard (the transport's
 * fetch), JSON-RPC batches of up to 25 calls, no retries of viem's own (the watcher backs off a
 * whole round). ws(s): the address is checked before connecting; the socket library connects itself.
 */
export async function openRpcWith(url: string, t: RpcTransport, timeoutMs: number): Promise<Rpc> {
  const viem = await loadViem();
  const parsed = new URL(url);
  if (parsed.protocol === 'ws:' || parsed.protocol === 'wss:') {
    await t.checkHost(bareHost(parsed));
    const transport = viem.webSocket(url, { timeout: timeoutMs, retryCount: 0 });
    const client = viem.createPublicClient({ transport }) as PublicClient;
    return {
      client,
      viem,
      chainId: lazyPromise(() => client.getChainId()),
      close: () => {
        t.close?.();
        void client.transport
          .getRpcClient?.()
          .then((c: { close(): void }) => c.close())
          .catch(() => undefined);
      },
    };
  }
  const transport = viem.http(url, {
    fetchFn: t.fetch as typeof fetch,
    batch: { batchSize: 25, wait: 0 },
    timeout: timeoutMs,
    retryCount: 0,
  });
  const client = viem.createPublicClient({ transport }) as PublicClient;
  return { client, viem, chainId: lazyPromise(() => client.getChainId()), close: () => t.close?.() };
}

/** A viem client for one node, the guard built from the RPC rules (the hot wallet's sender and checks). */
export function openRpc(url: string, guard: RpcGuard, timeoutMs: number): Promise<Rpc> {
  const fetcher = rpcFetch(guard);
  return openRpcWith(
    url,
    {
      fetch: fetcher.fetchFn,
      checkHost: async (host) => {
        await checkedRpcAddresses(host, guard);
      },
      close: fetcher.close,
    },
    timeoutMs,
  );
}
