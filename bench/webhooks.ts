/**
 * `npm run bench:webhooks -- [--store sqlite|postgres] [--endpoints 8] [--events 4000] [--rate 200]`:
 * webhook deliveries to a local receiver (127.0.0.1), through the real worker with a server's
 * default settings (poll, lease, batch; wake-ups on commit), signing and SSRF lookup.
 * Baseline: the same number of signed POSTs straight to the receiver, `--endpoints` at a time
 * over keep-alive sockets, no store: what this machine allows. Throughput: `--events` events are
 * committed first (one merchant and endpoint per `--endpoints`), then the time until the receiver
 * has them all. Latency: events committed at a steady `--rate` per second for 5 s; commit (the
 * write transaction returned) to receipt, p50/p99. `--cpu-prof <file>`: a CPU profile of the
 * throughput part. `--record-every 1`: each success recorded before the next send (default 10 per transaction).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'node:http';
import { webhookHeaders } from '@hostpay/protocol';
import { createServices } from '../packages/server/src/services.js';
import { dropPostgresSchema } from '../packages/server/src/store/postgres.js';

const { values: opts } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    endpoints: { type: 'string', default: '8' },
    events: { type: 'string', default: '4000' },
    rate: { type: 'string', default: '200' },
    'record-every': { type: 'string', default: '10' },
    'cpu-prof': { type: 'string' },
  },
});
const databaseUrl =
  opts.store === 'postgres'
    ? (process.env.HOSTPAY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
    : '';
const schema = `hp_bench_${randomBytes(5).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-bench-wh-'));

const received = new Map<string, number>();
let total = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received.set(String(req.headers['webhook-id']), performance.now());
    total++;
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const services = await createServices(
  { dataDir, databaseUrl, databaseSchema: opts.store === 'postgres' ? schema : '', masterKey: '', sandbox: true },
  {
    generateMasterKey: true,
    expirySweepMs: 0,
    webhooks: { worker: { recordEvery: Number(opts['record-every']) } },
  },
);
const merchants: string[] = [];
for (let i = 0; i < Number(opts.endpoints); i++) {
  const m = (await services.admin.createMerchant(`Bench ${i}`, { operator: 'bench' })).id;
  await services.webhooks.endpoints.create(m, { url });
  merchants.push(m);
}
const commit = async (i: number) => {
  const at = new Date().toISOString();
  const e = await services.store.writeTransaction((trx) =>
    services.outbox.append(
      trx,
      merchants[i % merchants.length]!,
      'wallet.balance_changed',
      `{"id":"wal_bench","amount":12.345678901234567891,"n":${i}}`,
      at,
    ),
  );
  return { id: e.id, at: performance.now() };
};
const until = async (n: number) => {
  while (total < n) await new Promise((r) => setTimeout(r, 5));
};

// Baseline: the receiver fed directly, as many at a time as there are endpoints.
const count = Number(opts.events);
const agent = new Agent({ keepAlive: true, maxSockets: merchants.length });
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const post = (i: number) =>
  new Promise<void>((resolve, reject) => {
    const body = `{"id":"evt_base${i}","type":"wallet.balance_changed","data":{"object":{"n":${i}}}}`;
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          ...webhookHeaders([secret], `evt_base${i}`, Math.floor(Date.now() / 1000), body),
          'content-type': 'application/json',
        },
      },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const b0 = performance.now();
let next = 0;
await Promise.all(
  merchants.map(async () => {
    while (next < count) await post(next++);
  }),
);
const baseSeconds = (performance.now() - b0) / 1000;
agent.destroy();
total = 0;
received.clear();

// Throughput: a backlog committed first, then the worker drains it.
for (let i = 0; i < count; i++) await commit(i);
const profiler = opts['cpu-prof'] === undefined ? undefined : new Session();
profiler?.connect();
await profiler?.post('Profiler.enable');
await profiler?.post('Profiler.start');
const t0 = performance.now();
services.webhooks.worker.start();
await until(count);
const seconds = (performance.now() - t0) / 1000;
if (profiler) writeFileSync(opts['cpu-prof']!, JSON.stringify((await profiler.post('Profiler.stop')).profile));

// Latency: a steady stream, commit → receipt.
const committed: { id: string; at: number }[] = [];
const rate = Number(opts.rate);
const start = performance.now();
for (let i = 0; i < rate * 5; i++) {
  const due = start + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  committed.push(await commit(count + i));
}
await until(count + committed.length);
const lat = committed.map((c) => received.get(c.id)! - c.at).sort((a, b) => a - b);
const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]!.toFixed(1);

console.log(
  `store ${opts.store}, ${merchants.length} endpoints, successes recorded ${opts['record-every']} per transaction`,
);
console.log(
  `baseline: ${count} signed POSTs straight to the receiver in ${baseSeconds.toFixed(2)} s = ${Math.round(count / baseSeconds)}/s`,
);
console.log(`throughput: ${count} deliveries in ${seconds.toFixed(2)} s = ${Math.round(count / seconds)}/s`);
console.log(`latency at ${rate}/s: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms (commit to receipt, ${lat.length} events)`);

await services.close();
receiver.close();
if (opts.store === 'postgres') await dropPostgresSchema(databaseUrl, schema);
rmSync(dataDir, { recursive: true, force: true });
