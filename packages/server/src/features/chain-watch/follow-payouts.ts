import type { ChainAdapter } from './adapter.js';
import type { WatchRow } from './config.js';
import type { PayoutChainPort } from './payout-port.js';

/**
 * Payout confirmations, counted like the payments': up to `top` (the last block scanned and kept),
 * and only for a transaction whose block the node still has at its height. Another block at that
 * height is a reorganisation: the payout goes back to `sent` (for either sender) and its
 * transaction is looked for again. A block the node does not show decides nothing (a provider
 * answering from a node behind): asked again next round. A payout whose move fails is that
 * payout's error (`port.failed`), never the round's.
 */
export async function followPayouts(
  port: PayoutChainPort,
  w: WatchRow,
  adapter: ChainAdapter,
  top: number,
): Promise<{ counted: number; reorged: number; failed: number }> {
  const followed = await port.followed(w.chain_id);
  const hashes = new Map<number, string | null>();
  let counted = 0;
  let reorged = 0;
  let failed = 0;
  for (const t of followed) {
    if (t.blockNumber > top) continue;
    if (!hashes.has(t.blockNumber)) hashes.set(t.blockNumber, await adapter.blockHash(t.blockNumber));
    const now = hashes.get(t.blockNumber);
    if (now === null) continue;
    try {
      if (now !== t.blockHash) {
        await port.reorged(t);
        reorged++;
        continue;
      }
      const confirmations = Math.min(top - t.blockNumber + 1, w.confirmations_required);
      if (confirmations <= t.confirmations) continue;
      await port.confirm(t, confirmations, w.confirmations_required);
      counted++;
    } catch (err) {
      // One payout whose move cannot be recorded (say its wallet cannot cover the actual fee) is
      // its own error: the others are counted, and the round (payments' confirmations, the
      // cursor) goes on. It is asked again next round.
      failed++;
      port.failed?.(t, w.symbol, err instanceof Error ? err.message : String(err));
    }
  }
  return { counted, reorged, failed };
}
