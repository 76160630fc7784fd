import type { Redis } from 'ioredis';

// SET NX PX for each key in order: 1 where this call set it, 0 where it was there already. One
// script, so the keys of a turn are claimed as they would be one by one, with nothing between.
const CLAIM = `local r = {}
for i = 1, #KEYS do
  if redis.call('SET', KEYS[i], '1', 'PX', ARGV[i], 'NX') then r[i] = 1 else r[i] = 0 end
end
return r`;

/** Keys per script call at most: a burst of claims is split rather than sent as one huge command. */
export const MAX_CLAIMS_PER_CALL = 500;

interface Waiting {
  key: string;
  ttlMs: number;
  resolve: (claimed: boolean | undefined) => void;
}

type ClaimScript = { hostpayClaimOnce(count: number, ...args: (string | number)[]): Promise<number[]> };

/**
 * `SET key 1 PX ttl NX` for the single-use signature claims (cluster/used-signatures.ts), the
 * claims of one turn of the event loop sent as ONE script call. Auto-pipelining only groups the
 * commands of one tick, and each request is read in a tick of its own, so one `SET` per request
 * was one socket write per signed write request, waking Redis each time (docs/benchmarks.md,
 * "Checkout create against the ceiling"). Each caller still gets its
 * own answer, exactly as if its `SET` had been sent alone; when Redis fails, everyone of the
 * call gets undefined (the store decides) and `onError` hears why.
 */
export function batchedClaims(
  redis: Redis,
  onError: (err: Error) => void,
): (key: string, ttlMs: number) => Promise<boolean | undefined> {
  redis.defineCommand('hostpayClaimOnce', { lua: CLAIM });
  let queue: Waiting[] = [];

  function send(batch: Waiting[]): void {
    const args: (string | number)[] = batch.map((w) => w.key);
    // PX takes a positive integer; one bad TTL would fail the whole call, everyone's claims with it.
    for (const w of batch) args.push(Math.max(1, Math.ceil(w.ttlMs)));
    (redis as unknown as ClaimScript).hostpayClaimOnce(batch.length, ...args).then(
      (set) => {
        for (const [i, w] of batch.entries()) w.resolve(set[i] === 1);
      },
      (err: unknown) => {
        onError(err instanceof Error ? err : new Error(String(err)));
        for (const w of batch) w.resolve(undefined);
      },
    );
  }

  function flush(): void {
    const all = queue;
    queue = [];
    for (let i = 0; i < all.length; i += MAX_CLAIMS_PER_CALL) send(all.slice(i, i + MAX_CLAIMS_PER_CALL));
  }

  return (key, ttlMs) =>
    new Promise((resolve) => {
      queue.push({ key, ttlMs, resolve });
      // After the poll phase: the requests read in this turn of the loop share one call.
      if (queue.length === 1) setImmediate(flush);
    });
}
