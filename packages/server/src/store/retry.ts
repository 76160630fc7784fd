/**
 * A transaction that lost to another one — PostgreSQL's serialization failure (40001) or deadlock
 * (40P01) — did nothing: PostgreSQL rolled it back whole. Running it again is what the database
 * asks of the client, so the store does it here, a bounded number of times with a short random
 * pause, instead of answering 500. The locks are taken in one order everywhere (see
 * features/checkouts/states.ts, "Lock order"), so this is the rare case, not the rule.
 *
 * Only the transaction body is run again: it must not have effects outside the database before it
 * commits (the store's transactions do not; caches are told after the commit).
 */
const RETRYABLE = new Set(['40001', '40P01']);

/** How many times a transaction is tried in all before its error is let through. */
export const TRANSACTION_ATTEMPTS = 5;

export function isSerializationFailure(err: unknown): boolean {
  return typeof err === 'object' && err !== null && RETRYABLE.has(String((err as { code?: unknown }).code));
}

export async function retrySerializationFailures<T>(
  attempt: () => Promise<T>,
  attempts = TRANSACTION_ATTEMPTS,
  onRetry?: (err: unknown, attempt: number) => void,
): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= attempts || !isSerializationFailure(err)) throw err;
      onRetry?.(err, i);
      // 5–10 ms, then 10–20, 20–40…: the winner commits meanwhile, and two losers do not collide again in step.
      const base = 5 * 2 ** (i - 1);
      await new Promise((r) => setTimeout(r, base + Math.random() * base));
    }
  }
}
