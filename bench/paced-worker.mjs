// The paced load generator of bench/paced.ts, on a worker thread of its own: the requests come
// ready-made (one buffer and their offsets), so between sends it allocates next to nothing, and
// the bench's own work and garbage collection (its main thread signs the next run's requests,
// samples CPU, holds results) cannot pause it. On 2026-11-30 a paced run in the bench's thread
// met scavenges of 19–34 ms, which the requests due meanwhile counted as server latency.
import { connect } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

/** An answer slower than this counts in `slowAt`. */
const SLOW_MS = 20;
const HEADER_END = Buffer.from('\r\n\r\n');

/** One HTTP/1.1 answer at the front of `buf`: its status and length, or null until it is complete. */
function answerIn(buf) {
  const end = buf.indexOf(HEADER_END);
  if (end < 0) return null;
  const head = buf.toString('latin1', 0, end);
  const status = Number(head.slice(9, 12));
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  const length = end + 4 + (m ? Number(m[1]) : 0);
  return buf.length >= length ? { status, length } : null;
}

async function open(o) {
  const socket = connect({ host: o.host, port: o.port, noDelay: true });
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const conn = { socket, dueAt: 0, buffer: Buffer.alloc(0), onAnswer: () => undefined };
  // A connection the server drops stays out of use: its request counts as unanswered.
  socket.on('error', () => undefined);
  socket.on('data', (d) => {
    conn.buffer = conn.buffer.length === 0 ? d : Buffer.concat([conn.buffer, d]);
    for (let a = answerIn(conn.buffer); a !== null; a = answerIn(conn.buffer)) {
      conn.buffer = conn.buffer.subarray(a.length);
      conn.onAnswer(a.status);
    }
  });
  return conn;
}

async function run(o) {
  const bytes = Buffer.from(o.requests);
  const ends = o.ends;
  let nextRequest = 0;
  const nextBytes = () => {
    // One request sent again and again; or each in turn, and past the last (never, when the
    // count is right) the first again, which a server taking each signed write once refuses: an error the result counts.
    const i = ends.length === 1 || nextRequest >= ends.length ? 0 : nextRequest++;
    return bytes.subarray(i === 0 ? 0 : ends[i - 1], ends[i]);
  };
  const conns = await Promise.all(Array.from({ length: o.connections }, () => open(o)));
  const free = [...conns];
  const waiting = [];
  // Preallocated: the run's latencies never grow an array while it runs.
  const latencies = new Float64Array(o.count);
  let measured = 0;
  const slow = new Map();
  let errors = 0;
  let measureFrom = Number.POSITIVE_INFINITY;
  let stopAt = Number.POSITIVE_INFINITY;
  let answered = 0;
  let answeredInWindow = 0;
  let sent = 0;

  const send = (c, dueAt) => {
    c.dueAt = dueAt;
    sent++;
    c.socket.write(nextBytes());
  };
  for (const c of conns) {
    c.onAnswer = (status) => {
      const now = performance.now();
      answered++;
      if (now >= measureFrom && now < stopAt) answeredInWindow++;
      if (c.dueAt >= measureFrom) {
        if (measured < latencies.length) latencies[measured++] = now - c.dueAt;
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
  const start = performance.now() + 10;
  measureFrom = start + o.warmupSeconds * 1000;
  stopAt = measureFrom + o.durationSeconds * 1000;
  let due = start;
  await new Promise((resolve) => {
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

  const sorted = latencies.subarray(0, measured).sort();
  const q = (f) => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))] ?? Number.NaN;
  return {
    offeredPerSecond: o.ratePerSecond,
    achievedPerSecond: answeredInWindow / o.durationSeconds,
    p50Ms: q(0.5),
    p99Ms: q(0.99),
    maxMs: sorted[sorted.length - 1] ?? Number.NaN,
    errors,
    count: measured,
    answered,
    unanswered: sent - answered + waiting.length,
    sent,
    slowAt: [...slow]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([slot, n]) => `${(slot / 10).toFixed(1)} s ×${n}`)
      .join(', '),
  };
}

run(workerData).then(
  (result) => parentPort.postMessage({ result }),
  (err) => parentPort.postMessage({ error: String(err?.stack ?? err) }),
);
