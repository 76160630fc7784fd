import type { Server } from 'node:http';
import type { ChainHarness } from '../harness.js';
import { BtcChain } from './btc-chain.js';
import { close, type Override } from './serve.js';

/**
 * What the Bitcoin stand-ins (Core's JSON-RPC, Esplora) share: one regtest-like chain they answer
 * from, paid, mined and reorganised the same way; each serves it in its provider's shapes.
 */
export abstract class BitcoinStandIn implements ChainHarness {
  readonly family = 'btc' as const;
  abstract readonly kind: string;
  readonly chain = 'BTC';
  readonly asset = 'BTC';
  readonly btc = new BtcChain();
  /** An answer to give instead of the stand-in's own, for the requests it returns one for. */
  override: Override | undefined;
  protected server: Server | undefined;

  abstract start(): Promise<{ url: string; networkId: string; apiKey?: string }>;

  async pay(to: string, baseUnits: bigint) {
    return { txHash: this.btc.pay([{ to, sats: baseUnits }]).txid };
  }

  async mine(n: number) {
    this.btc.mine(n);
  }

  async reorg(depth: number) {
    this.btc.reorg(depth);
  }

  async stop() {
    await close(this.server);
  }
}
