import type { WatchEnv } from '../../evm/env.js';
import { resultOf } from '../../http-helpers/admin-fixture.js';
import type { ChainHarness } from '../harness.js';
import { TronNodeStandIn, USDT_TRON } from './tron-node.js';

/**
 * The contract suite's view of the TRON stand-in: USDT (TRC-20) by default, TRX on request.
 * `mine` produces and solidifies, as a FullNode reports once 19 producers built on a block.
 */
export function tronHarness(opts: { asset?: 'USDT' | 'TRX'; apiKey?: string } = {}): ChainHarness & {
  node: TronNodeStandIn;
} {
  const asset = opts.asset ?? 'USDT';
  const apiKey = opts.apiKey ?? 'stand-in-tron-pro-api-key';
  const node = new TronNodeStandIn(`hostpay tron stand-in ${asset}`);
  return {
    family: 'tron',
    kind: 'tron-http',
    chain: 'TRON',
    asset,
    node,
    async start() {
      node.requiredApiKey = apiKey;
      // A little history, so that a watcher starting at "head minus confirmations" starts above 0.
      node.produce(3);
      node.solidify();
      const url = await node.start();
      return { url, networkId: node.genesisId, apiKey };
    },
    async pay(to, baseUnits) {
      const txHash = asset === 'TRX' ? node.payTrx(to, baseUnits) : node.payTrc20(USDT_TRON, to, baseUnits);
      return { txHash };
    },
    async mine(n) {
      node.produce(n);
      node.solidify();
    },
    async reorg(depth) {
      node.reorg(depth);
    },
    stop: () => node.stop(),
  };
}

/**
 * Points the server's TRON watch at a started stand-in (tron-http with its key and network, polled
 * every 250 ms); the watch as the admin API answers it.
 */
export async function watchTronStandIn(
  env: WatchEnv,
  node: { url: string; networkId: string; apiKey?: string },
  confirmations = 1,
): Promise<unknown> {
  return resultOf(
    await env.admin('PUT', '/chains/TRON/watch', {
      body: {
        kind: 'tron-http',
        rpcUrl: node.url,
        apiKey: node.apiKey,
        networkId: node.networkId,
        confirmations,
        pollIntervalMs: 250,
      },
    }),
  );
}
