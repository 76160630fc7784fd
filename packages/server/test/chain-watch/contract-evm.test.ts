import { createPublicClient, createTestClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { anvilBinary, startAnvil, type Anvil } from '../evm/anvil.js';
import { PAYER } from '../evm/env.js';
import { chainContract } from './contract.js';
import type { ChainHarness } from './harness.js';

/**
 * The generic contract on a real EVM node (anvil), paid in ETH: transactions wait in the pool
 * until `mine` (automine off), and a snapshot before every mined block lets `reorg` put back the
 * chain as it was and grow a longer branch without the dropped blocks' payments.
 */
function anvilHarness(): ChainHarness {
  let anvil: Anvil | undefined;
  let snapshots: Hex[] = [];
  let clients: ReturnType<typeof connect> | undefined;
  const connect = (url: string) => {
    const transport = http(url);
    const chain = {
      id: 31337,
      name: 'anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    } as const;
    return {
      chain,
      pub: createPublicClient({ transport }),
      wallet: createWalletClient({ account: PAYER, transport, chain }),
      test: createTestClient({ mode: 'anvil', transport }),
    };
  };
  const c = () => {
    if (clients === undefined) throw new Error('the harness is not started');
    return clients;
  };
  return {
    family: 'evm',
    kind: 'evm-rpc',
    chain: 'ETH',
    asset: 'ETH',
    async start() {
      anvil = await startAnvil();
      clients = connect(anvil.url);
      await c().test.setAutomine(false);
      snapshots = [];
      return { url: anvil.url, networkId: '31337' };
    },
    async pay(to, baseUnits) {
      const txHash = await c().wallet.sendTransaction({ to: to as Address, value: baseUnits });
      return { txHash };
    },
    async mine(n) {
      for (let i = 0; i < n; i++) {
        snapshots.push(await c().test.snapshot());
        await c().test.mine({ blocks: 1 });
      }
    },
    async reorg(depth) {
      const at = snapshots[snapshots.length - depth];
      if (at === undefined) throw new Error(`cannot reorganise ${depth} blocks: fewer were mined`);
      snapshots = snapshots.slice(0, snapshots.length - depth);
      await c().test.revert({ id: at });
      // The dropped blocks' transactions must not come back in the new branch.
      await c().test.request({ method: 'anvil_dropAllTransactions' as never, params: [] as never });
      await this.mine(depth + 1);
    },
    async stop() {
      await anvil?.stop();
      anvil = undefined;
      clients = undefined;
    },
  };
}

chainContract(anvilHarness(), {
  skip: anvilBinary === null ? 'no anvil binary for this platform' : undefined,
  amount: '0.01',
});
