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
import { connect, type Socket } from 'node:net';

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
   * When the answers slower than SLOW_MS were due, as "second of the run ×count" per 100 ms
   * (busiest first, at most 5): a tail from one stall sits in one or two slots, a slow server
   * is spread over all of them.
   */
  slowAt: string;
}

/** An answer slower than this counts in `slowAt` (issue 33's p99 target is 30 ms). */
const SLOW_MS = 20;

interface Conn {
  socket: Socket;
  dueAt: number;
  buffer: Buffer;
  onAnswer: (status: number) => void;
}

/** One HTTP/1.1 answer at the front of `buf`: its status and length, or null until it is complete. */
function answerIn(buf: Buffer): { status: number; length: number } | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = buf.toString('latin1', 0, end);
  const status = Number(head.slice(9, 12));
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  const length = end + 4 + (m ? Number(m[1]) : 0);
  return buf.length >= length ? { status, length } : null;
}

async function open(o: PacedOptions): Promise<Conn> {
  const socket = connect({ host: o.host, port: o.port, noDelay: true });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const conn: Conn = { socket, dueAt: 0, buffer: Buffer.alloc(0), onAnswer: () => undefined };
  // A connection the server drops stays out of use: its request counts as unanswered.
  socket.on('error', () => undefined);
  socket.on('data', (d: Buffer) => {
    conn.buffer = conn.buffer.length === 0 ? d : Buffer.concat([conn.buffer, d]);
    for (let a = answerIn(conn.buffer); a !== null; a = answerIn(conn.buffer)) {
      conn.buffer = conn.buffer.subarray(a.length);
      conn.onAnswer(a.status);
    }
  });
  return conn;
}

export async function paced(o: PacedOptions): Promise<PacedResult> {
  const conns = await Promise.all(Array.from({ length: o.connections }, () => open(o)));
  const free: Conn[] = [...conns];
  const waiting: number[] = [];
  const latencies: number[] = [];
  const slow = new Map<number, number>();
  let errors = 0;
  let measureFrom = Infinity;
  let stopAt = Infinity;
  let answered = 0;
  let answeredInWindow = 0;
  let sent = 0;

  const send = (c: Conn, dueAt: number) => {
    c.dueAt = dueAt;
    sent++;
    c.socket.write(typeof o.request === 'function' ? o.request() : o.request);
  };
  for (const c of conns) {
    c.onAnswer = (status) => {
      const now = performance.now();
      answered++;
      if (now >= measureFrom && now < stopAt) answeredInWindow++;
      if (c.dueAt >= measureFrom) {
        latencies.push(now - c.dueAt);
        if (now - c.dueAt > SLOW_MS) {
          const slot = Math.floor((c.dueAt - measureFrom) / 100);
          slow.set(slot, (slow.get(slot) ?? 0) + 1);
        }
        if (status !== o.expectStatus) errors++;
      }
      const next = waiting.shift();
      if (next === undefined) free.push(c);
      else send(c, next);
    };
  }

  const interval = 1000 / o.ratePerSecond;
  const warmup = (o.warmupSeconds ?? 1) * 1000;
  const start = performance.now() + 10;
  measureFrom = start + warmup;
  stopAt = measureFrom + o.durationSeconds * 1000;
  let due = start;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (; due <= now && due < stopAt; due += interval) {
        const c = free.pop();
        if (c === undefined) waiting.push(due);
        else send(c, due);
      }
      if (due < stopAt) setTimeout(tick, Math.max(0, Math.min(1, due - performance.now())));
      else resolve();
    };
    tick();
  });
  // Everything sent gets its answer (bounded: a server that stops answering fails the bench).
  const deadline = performance.now() + 30_000;
  while (answered < sent && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  for (const c of conns) c.socket.destroy();

  latencies.sort((a, b) => a - b);
  const q = (f: number) => latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))] ?? NaN;
  return {
    offeredPerSecond: o.ratePerSecond,
    achievedPerSecond: answeredInWindow / o.durationSeconds,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    maxMs: latencies[latencies.length - 1] ?? NaN,
    errors,
    count: latencies.length,
    answered,
    unanswered: sent - answered + waiting.length,
    slowAt: [...slow]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([slot, n]) => `${(slot / 10).toFixed(1)} s ×${n}`)
      .join(', '),
  };
}
