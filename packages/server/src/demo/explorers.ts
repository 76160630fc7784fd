import type { Services } from '../services.js';

/**
 * Block-explorer transaction pages for the demo's chains, by the chain's network type, so demo
 * receipts and Paid screens link each hash as a real installation would. A testnet chain gets its
 * testnet's explorer; regtest has none (a local chain no public site knows). The templates are
 * the examples of docs/catalog.md.
 */
export const DEMO_EXPLORERS: Readonly<Record<string, Partial<Record<string, string>>>> = {
  BTC: { mainnet: 'https://mempool.space/tx/{tx}', testnet: 'https://mempool.space/testnet4/tx/{tx}' },
  ETH: { mainnet: 'https://etherscan.io/tx/{tx}', testnet: 'https://sepolia.etherscan.io/tx/{tx}' },
  TRON: {
    mainnet: 'https://tronscan.org/#/transaction/{tx}',
    testnet: 'https://nile.tronscan.org/#/transaction/{tx}',
  },
};

/**
 * Sets the explorer of each demo chain that has none. A template an operator chose is left alone;
 * a demo data directory made before this gets them on its next run (as does a chain whose
 * template was removed: none and removed look the same, and a demo is for showing the links).
 */
export async function seedDemoExplorers({ admin }: Services): Promise<void> {
  const ctx = { operator: 'demo' };
  for (const chain of await admin.listChains()) {
    const template = DEMO_EXPLORERS[chain.symbol]?.[chain.networkType];
    if (chain.explorerTxUrl !== null || template === undefined) continue;
    await admin.updateChain(chain.symbol, { explorerTxUrl: template }, ctx);
  }
}
