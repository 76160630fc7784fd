/**
 * `npm run bench:webhooks-fair -- [--store sqlite|postgres] [--share 10] [--slow 110] [--origins 8]
 * [--answer-ms 11000] [--seconds 30]`: fairness of webhook delivery across merchants (issue 24).
 * Merchant X has `--slow` endpoints spread over `--origins` local receivers that answer after
 * `--answer-ms` (past the 10 s attempt timeout), 3 events each; merchant Y has one endpoint that
 * answers at once and commits an event every 500 ms for `--seconds`. Reports Y's commit-to-receipt
 * latency (p50, p99, max) with the worker's default 100 slots and `--share` slots per merchant
 * (0: no share, every slot open to one merchant: the behaviour before).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createServices } from '../packages/server/src/services.js';
import { dropPostgresSchema, openPostgresStore } from '../packages/server/src/store/postgres.js';

const { values: opts } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    share: { type: 'string', default: '10' },
    slow: { type: 'string', default: '110' },
    origins: { type: 'string', default: '8' },
    'answer-ms': { type: 'string', default: '11000' },
    seconds: { type: 'string', default: '30' },
  },
});
const databaseUrl =
  opts.store === 'postgres'
    ? (process.env.HOSTPAY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
    : '';
const schema = `hp_bench_${randomBytes(5).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-bench-fair-'));
const share = Number(opts.share);

const servers: Server[] = [];
const listen = async (handler: Parameters<typeof createServer>[1]) => {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const origins: string[] = [];
for (let i = 0; i < Number(opts.origins); i++)
  origins.push(
    await listen((req, res) => {
      req.resume();
      setTimeout(() => res.writeHead(204).end(), Number(opts['answer-ms'])).unref();
    }),
  );
const received = new Map<string, number>();
const fastUrl = await listen((req, res) => {
  req.resume();
  req.on('end', () => {
    received.set(String(req.headers['webhook-id']), performance.now());
    res.writeHead(204).end();
  });
});

const services = await createServices(
  { dataDir, databaseUrl, databaseSchema: opts.store === 'postgres' ? schema : '', masterKey: '', sandbox: true },
  {
    generateMasterKey: true,
    expirySweepMs: 0,
    ...(opts.store === 'postgres' ? { store: await openPostgresStore(databaseUrl, { schema }) } : {}),
    webhooks: { worker: { maxPerMerchant: share === 0 ? 1_000_000 : share } },
  },
);
const ctx = { operator: 'bench' };
const x = (await services.admin.createMerchant('X', ctx)).id;
const y = (await services.admin.createMerchant('Y', ctx)).id;
for (let i = 0; i < Number(opts.slow); i++)
  await services.webhooks.endpoints.create(x, { url: `${origins[i % origins.length]}/x${i}` });
await services.webhooks.endpoints.create(y, { url: `${fastUrl}/y` });
const commit = (merchant: string) =>
  services.store.writeTransaction((trx) =>
    services.outbox.append(trx, merchant, 'wallet.balance_changed', '{"id":"wal_bench"}', new Date().toISOString()),
  );
for (let i = 0; i < 3; i++) await commit(x);
services.webhooks.worker.start();
await new Promise((r) => setTimeout(r, 500));

const sent: { id: string; at: number }[] = [];
const end = performance.now() + Number(opts.seconds) * 1000;
while (performance.now() < end) {
  const e = await commit(y);
  sent.push({ id: e.id, at: performance.now() });
  await new Promise((r) => setTimeout(r, 500));
}
// Whatever Y has not received 60 s after the last commit counts as 60 s+.
const giveUp = performance.now() + 60_000;
while (sent.some((s) => !received.has(s.id)) && performance.now() < giveUp) await new Promise((r) => setTimeout(r, 50));
const lat = sent.map((s) => (received.get(s.id) ?? giveUp) - s.at).sort((a, b) => a - b);
const q = (p: number) => (lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]! / 1000).toFixed(2);
console.log(
  `store ${opts.store}, X: ${opts.slow} endpoints over ${opts.origins} origins answering after ${opts['answer-ms']} ms, 3 events each; share ${share === 0 ? 'none' : share} of 100 slots`,
);
console.log(
  `Y: ${lat.length} events, commit to receipt p50 ${q(0.5)} s, p99 ${q(0.99)} s, max ${(lat[lat.length - 1]! / 1000).toFixed(2)} s; X slots busy at the end: ${services.webhooks.worker.busy}`,
);

await services.webhooks.worker.stop().catch(() => undefined);
for (const s of servers) s.closeAllConnections();
await services.close();
for (const s of servers) s.close();
if (opts.store === 'postgres') await dropPostgresSchema(databaseUrl, schema);
rmSync(dataDir, { recursive: true, force: true });
