/**
 * Checkout create under load (issue 12, item 10), side by side with the wallet list in the same
 * run: starts the real compiled `hostpay serve` (SQLite by default, `--store postgres` for
 * PostgreSQL + Redis), signs one create body (one payment option: one address derivation, one
 * checkout, its option, timeline row and event per request) and drives both with wrk at
 * `--connections` (default 50). Every request creates a checkout: no Idempotency-Key.
 *
 *   npm run bench:checkout -- [--store sqlite|postgres] [--duration 5] [--connections 50] [--runs 2]
 *                             [--only create|wallets|paced] [--rate N] [--cpu-prof DIR]
 *
 * Two measures of create: wrk's closed loop (the most the server does with `--connections`
 * requests always outstanding) and, after it, `--rate` creates a second (default: 2,000, or 70 % of
 * the closed loop's median if that is less, so a store that cannot take 2,000 is measured at a load it
 * sustains) offered over as many
 * connections opened beforehand, with latency counted from when each request was due
 * (bench/paced.ts). A 3 s wrk run of creates warms the server first and is not reported.
 *
 * `--cpu-prof DIR` writes the server's V8 CPU profile there when it stops (profile first, then fix).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PATHS, sign, signV2, unixTimestamp } from '@hostpay/protocol';
import { createServices, loadConfig, seedDemo } from '@hostpay/server';
import { dropPostgresSchema } from '../packages/server/src/store/postgres.js';
import { hasWrk, load, type LoadResult } from './load.js';
import { paced, type PacedResult } from './paced.js';

const { values: opts } = parseArgs({
  options: {
    store: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    runs: { type: 'string', default: '2' },
    only: { type: 'string' },
    rate: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
if (!hasWrk()) {
  console.error('bench:checkout needs wrk (apt-get install wrk): POST bodies are sent through a wrk script');
  process.exit(2);
}
const postgres = opts.store === 'postgres';
const suffix = randomBytes(6).toString('hex');
const storeEnv: Record<string, string> = postgres
  ? {
      HOSTPAY_DATABASE_URL: process.env.HOSTPAY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      HOSTPAY_DATABASE_SCHEMA: `hp_bench_${suffix}`,
      HOSTPAY_REDIS_URL: process.env.HOSTPAY_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      HOSTPAY_REDIS_PREFIX: `hp_bench_${suffix}:`,
    }
  : {};
const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-bench-checkout-'));
const root = new URL('..', import.meta.url).pathname;
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

const masterKey = randomBytes(32).toString('base64');
const config = loadConfig({ ...storeEnv, HOSTPAY_DATA_DIR: dataDir, HOSTPAY_MASTER_KEY: masterKey });
const services = await createServices(config);
const demo = await seedDemo(services, dataDir);
const key = await services.admin.createApiKey(
  demo.merchantId,
  { rateLimitPerMinute: 1_000_000_000, label: 'bench' },
  { operator: 'bench' },
);
await services.close();

const profileArgs = opts['cpu-prof'] === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${opts['cpu-prof']}`];
const child = spawn(
  process.execPath,
  [...profileArgs, 'packages/cli/bin/hostpay.js', 'serve', '--data-dir', dataDir, '--port', '0'],
  {
    cwd: root,
    env: { ...process.env, ...storeEnv, HOSTPAY_MASTER_KEY: masterKey, HOSTPAY_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
children.push(child);
const port = await new Promise<number>((resolve, reject) => {
  let seen = '';
  child.stdout!.on('data', (d: Buffer) => {
    seen += d.toString();
    const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
    if (m) resolve(Number(m[1]));
  });
  child.on('exit', (code) => reject(new Error(`hostpay exited ${code}: ${seen}`)));
});
const base = `http://127.0.0.1:${port}`;

const tokenBody = JSON.stringify({ expiresIn: 3600 });
const keyHeaders = (body = '') => {
  const timestamp = unixTimestamp();
  return { 'api-key': key.apiKey, timestamp, signature: sign(key.apiSecret, timestamp, body) };
};
const v2Headers = (method: string, target: string, body = '') => {
  const timestamp = unixTimestamp();
  return {
    'api-key': key.apiKey,
    timestamp,
    'signature-version': '2',
    signature: signV2(key.apiSecret, timestamp, method, target, body),
  };
};
const tokenRes = await fetch(base + PATHS.token, {
  method: 'POST',
  headers: { ...keyHeaders(tokenBody), 'content-type': 'application/json' },
  body: tokenBody,
});
const token = ((await tokenRes.json()) as { result: { accessToken: string } }).result.accessToken;
const createBody = JSON.stringify({
  amount: '100',
  currency: 'EUR',
  orderId: 'bench',
  paymentOptions: [{ asset: 'USDT', chain: 'TRON' }],
});
const createUrl = `${base}/api/v1/cp/psp/hosted-pay`;
// Signed afresh for each run: a signature's timestamp is accepted for ±60 s, less than a whole bench.
// Version 2 (method and path signed): the only version the create accepts.
const createHeaders = () => ({
  ...v2Headers('POST', '/api/v1/cp/psp/hosted-pay', createBody),
  authorization: `Bearer ${token}`,
  'content-type': 'application/json',
});

// A sanity call first: the bench must measure 201s, not refusals.
const probe = await fetch(createUrl, { method: 'POST', headers: createHeaders(), body: createBody });
if (probe.status !== 201) throw new Error(`create probe: ${probe.status} ${await probe.text()}`);

const script = join(dataDir, 'post.lua');
writeFileSync(script, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(createBody)}\n`);
const connections = Number(opts.connections);
const duration = Number(opts.duration);
const loadCreates = (durationSeconds: number) =>
  load({ url: createUrl, headers: createHeaders(), durationSeconds, connections, threads: 1, script });
const allTargets = [
  {
    name: 'GET /api/v1/cp/wallets',
    run: () =>
      load({
        url: `${base}/api/v1/cp/wallets`,
        headers: { ...keyHeaders(), authorization: `Bearer ${token}` },
        durationSeconds: duration,
        connections,
        threads: 1,
      }),
  },
  {
    name: 'POST hosted-pay (create)',
    run: () => loadCreates(duration),
  },
];
// `--only paced`: the warm-up and the paced runs alone (to profile the server at the offered rate).
const pacedOnly = opts.only === 'paced';
const targets = pacedOnly
  ? []
  : allTargets.filter(
      (t) => opts.only === undefined || t.name.includes(opts.only === 'wallets' ? 'wallets' : 'create'),
    );
const median = (xs: LoadResult[]) =>
  [...xs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(xs.length / 2)]!;
const measuresCreate = pacedOnly || targets.some((t) => t.name.includes('create'));
// Warm-up (JIT, caches, the address worker's first batch): measured runs start on a warm server.
if (measuresCreate) await loadCreates(3);
const results = new Map<string, LoadResult[]>();
for (let r = 0; r < Number(opts.runs); r++)
  for (const t of targets) results.set(t.name, [...(results.get(t.name) ?? []), await t.run()]);
const pacedRuns: PacedResult[] = [];
let rate = 0;
if (measuresCreate) {
  const request = () => {
    const headers = { ...createHeaders(), 'content-length': String(Buffer.byteLength(createBody)) };
    return Buffer.from(
      `POST /api/v1/cp/psp/hosted-pay HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n${createBody}`,
    );
  };
  const closed = results.get('POST hosted-pay (create)');
  rate =
    opts.rate !== undefined
      ? Number(opts.rate)
      : closed
        ? Math.min(2000, Math.round((0.7 * median(closed).requestsPerSecond) / 10) * 10)
        : 2000;
  for (let r = 0; r < Number(opts.runs); r++) {
    pacedRuns.push(
      await paced({
        host: '127.0.0.1',
        port,
        request: request(),
        expectStatus: 201,
        connections,
        ratePerSecond: rate,
        durationSeconds: duration,
      }),
    );
  }
}

const { readFileSync } = await import('node:fs');
const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
console.log(
  `\ncheckout create vs wallet list, ${postgres ? 'PostgreSQL + Redis' : 'embedded SQLite'}, ${connections} connections, ${opts.runs} × ${duration} s, load average ${load1}`,
);
console.log(
  `${'endpoint'.padEnd(28)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}  runs (req/s)`,
);
for (const [name, xs] of results) {
  const m = median(xs);
  console.log(
    `${name.padEnd(28)} ${m.requestsPerSecond.toFixed(0).padStart(9)} ${m.p50Ms.toFixed(2).padStart(8)} ${m.p99Ms.toFixed(2).padStart(8)} ${String(m.non2xx).padStart(8)}  ${xs.map((x) => x.requestsPerSecond.toFixed(0)).join(' ')}`,
  );
}
if (pacedRuns.length > 0) {
  const m = [...pacedRuns].sort((a, b) => a.p99Ms - b.p99Ms)[Math.floor(pacedRuns.length / 2)]!;
  const unanswered = pacedRuns.reduce((n, x) => n + x.unanswered, 0);
  console.log(
    `${`create at ${rate}/s offered`.padEnd(28)} ${m.achievedPerSecond.toFixed(0).padStart(9)} ${m.p50Ms.toFixed(2).padStart(8)} ${m.p99Ms.toFixed(2).padStart(8)} ${String(m.errors).padStart(8)}  p99 per run: ${pacedRuns.map((x) => x.p99Ms.toFixed(1)).join(' ')}; max ${m.maxMs.toFixed(1)} ms${unanswered > 0 ? `; NOT SUSTAINED: ${unanswered} never answered` : ''}`,
  );
}
const exited = new Promise((r) => child.once('exit', r));
child.kill('SIGTERM');
// Wait for the server to stop (and a profiled one to write its profile) before dropping its schema.
await exited;
if (postgres) await dropPostgresSchema(storeEnv.HOSTPAY_DATABASE_URL!, storeEnv.HOSTPAY_DATABASE_SCHEMA!);
process.exit(0);
