import { iso, type SendContext, type TxRow } from './context.js';
import { broadcastRow } from './send.js';

/**
 * The node's own answer in an error (a JSON-RPC error response: "insufficient funds", "fee too
 * low"), or null for anything else (a timeout, a connection refused): only an answer says the
 * node refuses these bytes; the rest is the round's failure, retried with back-off.
 */
export function nodeAnswer(err: unknown): string | null {
  const answered = (err as { walk?: (fn: (e: unknown) => boolean) => unknown }).walk?.(
    (e) => (e as Error).name === 'RpcRequestError',
  );
  if (answered === undefined || answered === null) return null;
  // Never viem's whole message: it carries the request's URL, which may hold the node's API key.
  const e = err as { details?: string; shortMessage?: string };
  return (e.details ?? e.shortMessage ?? 'the node refused the transaction').slice(0, 500);
}

/**
 * Broadcasts stored bytes again (never broadcast yet, or gone from the node). A node that
 * answers with a refusal marks the transaction forgotten with its answer — that payout's trouble,
 * shown to operators with what they can do (rebroadcast, cancel by replacement), not the round's:
 * the other nonces are still followed. Accepted, the mark goes. false when refused.
 */
export async function sendAgain(c: SendContext, row: TxRow, again: boolean): Promise<boolean> {
  try {
    await broadcastRow(c, row, again);
  } catch (err) {
    const answer = nodeAnswer(err);
    if (answer === null) throw err;
    c.log.warn(
      `hot wallet ${c.hw.symbol}: the node refused transaction ${row.tx_hash} (nonce ${row.nonce}): ${answer}`,
    );
    await markForgotten(c, row, answer);
    return false;
  }
  await remembered(c, row);
  return true;
}

async function markForgotten(c: SendContext, row: TxRow, answer: string): Promise<void> {
  const at = row.forgotten_at ?? iso(c);
  await c.store.writeTransaction((trx) =>
    trx.updateTable('hot_wallet_txs').set({ forgotten_at: at, node_error: answer }).where('id', '=', row.id).execute(),
  );
  row.forgotten_at = at;
  row.node_error = answer;
}

/** The node holds the transaction (again): no longer forgotten. */
export async function remembered(c: SendContext, row: TxRow): Promise<void> {
  if ((row.forgotten_at ?? null) === null && (row.node_error ?? null) === null) return;
  await c.store.writeTransaction((trx) =>
    trx.updateTable('hot_wallet_txs').set({ forgotten_at: null, node_error: null }).where('id', '=', row.id).execute(),
  );
  row.forgotten_at = null;
  row.node_error = null;
}
