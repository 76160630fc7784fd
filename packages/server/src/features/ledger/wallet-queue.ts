/**
 * Postings to one wallet, one at a time per process (PostgreSQL).
 *
 * A posting locks its wallet row (`SELECT … FOR UPDATE`) and holds the lock for the rest of its
 * transaction, about eight round trips. Without this queue every concurrent posting to a hot
 * wallet took a pooled connection and then waited in PostgreSQL for the row lock: a burst of 50
 * on one instance held all 10 connections, the lock waits counted against the statement timeout
 * (the lock queue grows by one hold time per waiter), and everything else on that instance —
 * other wallets, merchants, tokens — waited for a connection past the connect timeout, which
 * pg-pool also applies to that wait. On a loaded host, where each round trip also waits for the
 * CPU, that was 503 UNAVAILABLE from a healthy database. Queued here, a posting waits in memory
 * without a connection, at most one connection per instance waits for a given wallet's lock, and
 * the rest of the pool stays free. The row lock is still what serialises postings (across
 * instances too); this only keeps the waiting out of the database. SQLite has one writer and
 * group commit, so it does not use this.
 */
export type KeyedQueue = <T>(key: string, task: () => Promise<T>) => Promise<T>;

/**
 * Runs each task after every earlier task with the same key has settled (FIFO per key). When a
 * task fails with an error `failFast` accepts (the store is unreachable), the tasks already
 * queued behind it fail with that error without running: each would otherwise wait its turn
 * only to meet the same outage, and the last of a long queue would answer long after the
 * timeouts a request is promised.
 */
export function keyedQueue(failFast: (err: unknown) => boolean = () => false): KeyedQueue {
  // Each key's tail settles to the error that stops the tasks behind it, or undefined.
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve(undefined)).then((stop) =>
      stop === undefined ? task() : Promise.reject(stop),
    );
    const tail = run.then(
      () => undefined,
      (err: unknown) => (failFast(err) ? err : undefined),
    );
    tails.set(key, tail);
    // The last task of a key removes its entry, so the map holds only wallets with work queued.
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
