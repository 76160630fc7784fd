/**
 * Latency at a given load: requests sent at a fixed rate over `connections` keep-alive
 * connections opened (and warmed) before timing starts, each request's latency counted from when
 * it was due, not from when a connection was free to send it (so a slow answer delays the
 * requests queued behind it and they count it: no "coordinated omission", as wrk2 does).
 *
 * wrk (closed loop) measures the other thing: the most the server does with 50 requests always
 * outstanding, where latency is 50 / throughput by construction (Little's law). It also opens its
 * connections when the run starts, and Node accepts one connection per event-loop turn, so under
 * full load the last of 50 new connections waits 50 turns for its first answer: wrk counts that
 * in the run's tail (docs/benchmarks.md, "Checkout create").
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';

export interface PacedOptions {
  host: string;
  port: number;
  /**
   * The whole request, bytes as sent (method line, headers, body), or a function giving a new
   * one for each send: the server accepts a signed write once (409 SIGNATURE_REUSED), so a paced
   * run of writes needs a distinct, freshly signed request every time.
   */
  request: Buffer | (() => Buffer);
  /** Status every answer must have; others are counted as errors. */
  expectStatus: number;
  connections: number;
  ratePerSecond: number;
  durationSeconds: number;
  /** Requests sent (at the same rate) before timing starts. */
  warmupSeconds?: number;
}

export interface PacedResult {
  offeredPerSecond: number;
  achievedPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  count: number;
  /** Every answer, the warm-up's too (a profile's denominator). */
  answered: number;
  /** Requests unanswered (sent, or still waiting for a connection) 30 s after the last was due: the rate was not sustained. */
  unanswered: number;
  /**
   * When the answers slower than 20 ms (SLOW_MS, paced-worker.mjs) were due, as "second of the run ×count" per 100 ms
   * (busiest first, at most 5): a tail from one stall sits in one or two slots, a slow server
   * is spread over all of them.
   */
  slowAt: string;
}

/**
 * Runs the paced load on a worker thread (bench/paced-worker.mjs) with every request made
 * beforehand: the generator must not pause for the bench's own work or garbage collection, or the
 * requests due meanwhile count the pause as the server's latency.
 */
export async function paced(o: PacedOptions): Promise<PacedResult> {
  const warmupSeconds = o.warmupSeconds ?? 1;
  // Every request due in the run: one per interval from its start to its end, and one spare.
  const count = Math.ceil((warmupSeconds + o.durationSeconds) * o.ratePerSecond) + 1;
  const requests = typeof o.request === 'function' ? Array.from({ length: count }, o.request) : [o.request];
  const bytes = Buffer.concat(requests);
  const ends: number[] = [];
  let end = 0;
  for (const r of requests) ends.push((end += r.length));
  const owned = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  const worker = new Worker(new URL('./paced-worker.mjs', import.meta.url), {
    workerData: {
      host: o.host,
      port: o.port,
      requests: owned,
      ends,
      count,
      expectStatus: o.expectStatus,
      connections: o.connections,
      ratePerSecond: o.ratePerSecond,
      durationSeconds: o.durationSeconds,
      warmupSeconds,
    },
    transferList: [owned],
  });
  try {
    const [message] = (await once(worker, 'message')) as [{ result?: PacedResult & { sent: number }; error?: string }];
    if (message.error !== undefined || message.result === undefined)
      throw new Error(`paced load generator failed: ${message.error}`);
    const { sent, ...result } = message.result;
    if (sent > count) throw new Error(`paced: ${sent} requests sent, ${count} made`);
    return result;
  } finally {
    await worker.terminate();
  }
}
