import type { PublicClient } from 'viem';
import { bareHost } from '../../outbound/guard.js';
import { checkedRpcAddresses, rpcFetch, type RpcGuard } from './rpc-url.js';

export type Viem = typeof import('viem');

export interface Rpc {
  client: PublicClient;
  viem: Viem;
  /** eth_chainId, asked once per connection. */
  chainId(): Promise<number>;
  close(): void;
}

function once(client: PublicClient): () => Promise<number> {
  let id: Promise<number> | undefined;
  return () => {
    id ??= client.getChainId().catch((err: unknown) => {
      id = undefined;
      throw err;
    });
    return id;
  };
}

let viemModule: Promise<Viem> | undefined;
/** viem is loaded on the first watched chain, not at start-up: a server that watches nothing never pays for it. */
export const loadViem = (): Promise<Viem> => {
  viemModule ??= import('viem');
  return viemModule;
};

/**
 * A viem client for one node. http(s): every connection through the SSRF guard (rpcFetch),
 * JSON-RPC batches of up to 25 calls, no retries of viem's own (the watcher backs off a whole
 * round). ws(s): the address is checked before connecting; the socket library connects itself.
 */
export async function openRpc(url: string, guard: RpcGuard, timeoutMs: number): Promise<Rpc> {
  const viem = await loadViem();
  const parsed = new URL(url);
  if (parsed.protocol === 'ws:' || parsed.protocol === 'wss:') {
    await checkedRpcAddresses(bareHost(parsed), guard);
    const transport = viem.webSocket(url, { timeout: timeoutMs, retryCount: 0 });
    const client = viem.createPublicClient({ transport }) as PublicClient;
    return {
      client,
      viem,
      chainId: once(client),
      close: () => {
        void client.transport
          .getRpcClient?.()
          .then((c: { close(): void }) => c.close())
          .catch(() => undefined);
      },
    };
  }
  const fetcher = rpcFetch(guard);
  const transport = viem.http(url, {
    fetchFn: fetcher.fetchFn,
    batch: { batchSize: 25, wait: 0 },
    timeout: timeoutMs,
    retryCount: 0,
  });
  const client = viem.createPublicClient({ transport }) as PublicClient;
  return { client, viem, chainId: once(client), close: fetcher.close };
}
