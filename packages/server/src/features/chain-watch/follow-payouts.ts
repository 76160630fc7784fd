import type { ChainAdapter } from './adapter.js';
import type { WatchRow } from './config.js';
import type { PayoutChainPort } from './payout-port.js';

/**
 * Payout confirmations, counted like the payments': up to `top` (the last block scanned and kept),
 * and only for a transaction whose block the node still has at its height. A block that changed
 * is not counted; the sender sees the reorganisation by its receipt and moves the transaction.
 */
export async function followPayouts(
  port: PayoutChainPort,
  w: WatchRow,
  adapter: ChainAdapter,
  top: number,
): Promise<number> {
  const followed = await port.followed(w.chain_id);
  const hashes = new Map<number, string | null>();
  let counted = 0;
  for (const t of followed) {
    if (t.blockNumber > top) continue;
    if (!hashes.has(t.blockNumber)) hashes.set(t.blockNumber, await adapter.blockHash(t.blockNumber));
    if (hashes.get(t.blockNumber) !== t.blockHash) continue;
    const confirmations = Math.min(top - t.blockNumber + 1, w.confirmations_required);
    if (confirmations <= t.confirmations) continue;
    await port.confirm(t.id, t.blockHash, confirmations, w.confirmations_required);
    counted++;
  }
  return counted;
}
