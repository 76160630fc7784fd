/**
 * `npm run bench [-- --duration 10 --connections 64 --threads 1 --store sqlite|postgres]`: hostpay
 * vs a bare node:http server returning the same bytes, loaded in turn in the same run, with
 * signed requests. Then the wallet list of a 5- and a 1,000-wallet merchant uncompressed, gzip and
 * br (bytes on the wire, p50; bench/large.ts), start-up (bench/startup.ts) and the client's
 * overhead per call (bench/client.ts). `--store postgres` runs hostpay in production mode: PostgreSQL (a schema of its
 * own, dropped afterwards) and Redis (a key prefix of its own), from HOSTPAY_BENCH_DATABASE_URL
 * and HOSTPAY_BENCH_REDIS_URL (defaults: the local test servers).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { processMemoryMb } from './proc-memory.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PATHS, sign, unixTimestamp } from '@hostpay/protocol';
import { randomBytes } from 'node:crypto';
import { createServices, loadConfig, seedDemo } from '@hostpay/server';
import { dropPostgresSchema } from '../packages/server/src/store/postgres.js';
import { seedBigMerchant } from './big-merchant.js';
import { measureClient, printClient } from './client.js';
import { getOnce, measureLarge, printLarge } from './large.js';
import { load, type LoadResult } from './load.js';
import { measureStartup, printStartup } from './startup.js';

const { values: opts } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    // Bare and hostpay runs alternate this many times; the table shows the median of each.
    runs: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    threads: { type: 'string', default: '1' },
    store: { type: 'string', default: 'sqlite' },
    // With --store postgres: run without Redis (one instance, in-process limits) for comparison.
    'no-redis': { type: 'boolean', default: false },
    // Start-up figures printed after the throughput table: runs of each; 0 leaves them out.
    'startup-runs': { type: 'string', default: '5' },
    // Only the throughput rows whose name contains this text (e.g. `wallets`, `fees`).
    only: { type: 'string' },
    // Extra node flags for the hostpay server, space-separated (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
    'server-node-args': { type: 'string' },
    help: { type: 'boolean', default: false },
    // Runs of each answer-size row (5 and 1,000 wallets × identity, gzip, br); 0 leaves them out.
    'large-runs': { type: 'string', default: '1' },
    // Rounds of the in-process client measurement; 0 leaves it out. With --client-baseline <git
    // rev>, that revision's client is measured beside this tree's in the same process.
    'client-rounds': { type: 'string', default: '7' },
    'client-baseline': { type: 'string' },
  },
});
if (opts.help) {
  console.log(`npm run bench [-- options]
  --duration <s>            seconds per measured run (default 5)
  --runs <n>                alternating bare/hostpay runs per endpoint; medians shown (default 3)
  --connections <n>         wrk connections (default 64)
  --threads <n>             wrk threads (default 1)
  --store sqlite|postgres   embedded SQLite (default) or PostgreSQL (+ Redis unless --no-redis)
  --only <text>             only the endpoints whose name contains <text> (wallets, fees)
  --server-node-args=<a>    node flags for the hostpay server, e.g. --server-node-args="--cpu-prof --cpu-prof-dir=/tmp/p"
  --large-runs <n>          runs of each answer-size row; 0 leaves them out (default 1)
  --startup-runs <n>        start-up runs; 0 leaves them out (default 5)
  --client-rounds <n>       rounds of the client measurement; 0 leaves it out (default 7)
  --client-baseline <rev>   measure that revision's client beside this tree's`);
  process.exit(0);
}
if (opts.store !== 'sqlite' && opts.store !== 'postgres') {
  console.error(`bench: --store must be sqlite (embedded) or postgres, not ${opts.store}`);
  process.exit(2);
}
const postgres = opts.store === 'postgres';
const suffix = randomBytes(4).toString('hex');
const storeEnv: Record<string, string> = postgres
  ? {
      HOSTPAY_DATABASE_URL: process.env.HOSTPAY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      HOSTPAY_DATABASE_SCHEMA: `hp_bench_${suffix}`,
      ...(opts['no-redis']
        ? {}
        : {
            HOSTPAY_REDIS_URL: process.env.HOSTPAY_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
            HOSTPAY_REDIS_PREFIX: `hp_bench_${suffix}:`,
          }),
    }
  : {};
const root = new URL('..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-bench-'));
const children: ChildProcess[] = [];
const cleanup = () => {
  for (const c of children) c.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', cleanup);
async function dropSchema(): Promise<void> {
  if (postgres) await dropPostgresSchema(storeEnv.HOSTPAY_DATABASE_URL!, storeEnv.HOSTPAY_DATABASE_SCHEMA!);
}

/** One GET: hostpay's response headers in the order it wrote them, and the body. */
async function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const res = await getOnce(url, headers);
  const kept: Record<string, string> = {};
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i]!.toLowerCase();
    // Node writes these itself, on both servers.
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) kept[name] = res.rawHeaders[i + 1]!;
  }
  return { status: res.status, headers: kept, body: res.body.toString('utf8') };
}

/** Starts a child and resolves with the port it prints (`... listening <port>` or a URL). */
function startChild(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /listening (\d+)|http:\/\/127\.0\.0\.1:(\d+)/.exec(seen);
      if (m) resolve(Number(m[1] ?? m[2]));
    });
    child.on('exit', (code) => reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${seen}`)));
  });
}

// Seed: the demo merchant plus a key whose rate limit does not cap the benchmark.
const masterKey = randomBytes(32).toString('base64');
const config = loadConfig({ ...storeEnv, HOSTPAY_DATA_DIR: dataDir, HOSTPAY_MASTER_KEY: masterKey });
const services = await createServices(config);
const demo = await seedDemo(services, dataDir);
const key = await services.admin.createApiKey(
  demo.merchantId,
  { rateLimitPerMinute: 1_000_000_000, label: 'bench' },
  { operator: 'bench' },
);
const big = Number(opts['large-runs']) > 0 ? await seedBigMerchant(services, 1000) : undefined;
await services.close();

const hostpayPort = await startChild(
  process.execPath,
  [
    ...(opts['server-node-args']?.split(' ').filter(Boolean) ?? []),
    'packages/cli/bin/hostpay.js',
    'serve',
    '--data-dir',
    dataDir,
    '--port',
    '0',
  ],
  {
    ...storeEnv,
    HOSTPAY_MASTER_KEY: masterKey,
    HOSTPAY_LOG_LEVEL: 'warn',
  },
);
const base = `http://127.0.0.1:${hostpayPort}`;

type BenchKey = { apiKey: string; apiSecret: string };
const keyHeaders = (k: BenchKey, body = '') => {
  const timestamp = unixTimestamp();
  return { 'api-key': k.apiKey, timestamp, signature: sign(k.apiSecret, timestamp, body) };
};
async function bearerHeaders(k: BenchKey): Promise<() => Record<string, string>> {
  const tokenBody = JSON.stringify({ expiresIn: 3600 });
  const issue = () =>
    fetch(base + PATHS.token, {
      method: 'POST',
      headers: { ...keyHeaders(k, tokenBody), 'content-type': 'application/json' },
      body: tokenBody,
    });
  // wrk runs synchronously (execFileSync), so fetch's pool cannot retire a keep-alive connection
  // the server closed meanwhile (65 s idle): a reuse of it fails once; a new one works.
  const tokenRes = await issue().catch(issue);
  const token = ((await tokenRes.json()) as { result: { accessToken: string } }).result.accessToken;
  return () => ({ ...keyHeaders(k), authorization: `Bearer ${token}` });
}
const headers = await bearerHeaders(key);

const targets = [
  { name: 'GET /api/v1/cp/wallets', path: '/api/v1/cp/wallets' },
  { name: 'GET fees-preview (100 USDT)', path: `${PATHS.feesPreview}?amount=100&currency=USDT` },
].filter((t) => opts.only === undefined || t.name.includes(opts.only));
const bodies: Record<string, string> = {};
/** Each path's response headers as hostpay sent them, in its order (for the same-bytes baseline). */
const heads: Record<string, Record<string, string>> = {};
for (const t of targets) {
  const res = await rawGet(base + t.path, headers());
  if (res.status !== 200) throw new Error(`${t.path}: ${res.status} ${res.body}`);
  bodies[t.path] = res.body;
  heads[t.path] = res.headers;
}
const bodiesFile = join(dataDir, 'bodies.json');
writeFileSync(bodiesFile, JSON.stringify(bodies));
const headsFile = join(dataDir, 'heads.json');
writeFileSync(headsFile, JSON.stringify(heads));
const barePort = await startChild(process.execPath, ['bench/bare-server.mjs', bodiesFile, '0']);
const samePort = await startChild(process.execPath, ['bench/bare-server.mjs', bodiesFile, '0', headsFile]);

const durationSeconds = Number(opts.duration);
const connections = Number(opts.connections);
const threads = Number(opts.threads);
const runs = Number(opts.runs);
/** The run with the median requests/s: one noisy run on a shared machine does not decide. */
const median = (results: LoadResult[]): LoadResult =>
  [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)]!;
/**
 * CPU time (user + system, ms) a process has used, from /proc (Linux; NaN elsewhere). Server CPU
 * per request is steadier than req/s on a shared VM, where the load generator's share of the
 * machine moves the throughput of both servers.
 */
function cpuMs(pid: number | undefined): { user: number; system: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { user: (Number(fields[11]) * 1000) / 100, system: (Number(fields[12]) * 1000) / 100 };
  } catch {
    return { user: Number.NaN, system: Number.NaN };
  }
}
const hostpayPid = children[0]?.pid;
const barePid = children[1]?.pid;
const samePid = children[2]?.pid;
/** Server CPU per request, µs: total, and its user (JavaScript, Node) and system (kernel: sockets) parts. */
type Measured = LoadResult & { cpuUsPerRequest: number; userUs: number; systemUs: number };
async function measured(pid: number | undefined, url: string): Promise<Measured> {
  const before = cpuMs(pid);
  const r = await load({ url, headers: headers(), durationSeconds, connections, threads });
  const requests = r.requestsPerSecond * durationSeconds;
  const after = cpuMs(pid);
  const userUs = ((after.user - before.user) * 1000) / requests;
  const systemUs = ((after.system - before.system) * 1000) / requests;
  return { ...r, cpuUsPerRequest: userUs + systemUs, userUs, systemUs };
}
const medianBy = (results: Measured[], key: 'cpuUsPerRequest' | 'userUs' | 'systemUs'): number =>
  [...results].map((r) => r[key]).sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
type Side = 'bare' | 'same' | 'hostpay';
type Cpu = Record<Side, number>;
const rows: {
  name: string;
  bare: Measured;
  same: Measured;
  hostpay: Measured;
  ratios: number[];
  sameRatios: number[];
  cpu: Cpu;
  user: Cpu;
  system: Cpu;
}[] = [];
for (const t of targets) {
  // Unmeasured warm-up of every server: the first seconds of hostpay run before V8 has optimised
  // the request path (measured: 72 µs of CPU per request in the first 5 s, 28 µs after).
  for (const origin of [`http://127.0.0.1:${barePort}`, `http://127.0.0.1:${samePort}`, base])
    await load({ url: origin + t.path, headers: headers(), durationSeconds: 2, connections, threads });
  const bare: Measured[] = [];
  const same: Measured[] = [];
  const hostpay: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await measured(barePid, `http://127.0.0.1:${barePort}${t.path}`));
    same.push(await measured(samePid, `http://127.0.0.1:${samePort}${t.path}`));
    const h = await measured(hostpayPid, base + t.path);
    if (h.non2xx > 0) throw new Error(`${t.name}: ${h.non2xx} non-2xx responses from hostpay during the run`);
    hostpay.push(h);
  }
  const by = (key: 'cpuUsPerRequest' | 'userUs' | 'systemUs'): Cpu => ({
    bare: medianBy(bare, key),
    same: medianBy(same, key),
    hostpay: medianBy(hostpay, key),
  });
  rows.push({
    name: t.name,
    bare: median(bare) as Measured,
    same: median(same) as Measured,
    hostpay: median(hostpay) as Measured,
    ratios: hostpay.map((h, i) => h.requestsPerSecond / bare[i]!.requestsPerSecond),
    sameRatios: hostpay.map((h, i) => h.requestsPerSecond / same[i]!.requestsPerSecond),
    cpu: by('cpuUsPerRequest'),
    user: by('userUs'),
    system: by('systemUs'),
  });
}

const f = (n: number, d = 0) => n.toFixed(d).padStart(9);
console.log(
  `\nhostpay bench — ${rows[0]?.bare.tool}, ${threads} thread(s), ${connections} connections, ${runs} alternating runs of ${durationSeconds}s (medians), Node ${process.version}, ${postgres ? (opts['no-redis'] ? 'PostgreSQL, no Redis' : 'PostgreSQL + Redis') : 'embedded SQLite'}`,
);
console.log(
  `${'endpoint'.padEnd(30)} ${'server'.padEnd(8)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'ratio'.padStart(7)} ${'CPU µs/req'.padStart(11)} ${'user+sys'.padStart(11)} ${'CPU ratio'.padStart(10)}`,
);
for (const r of rows) {
  const ratio = r.hostpay.requestsPerSecond / r.bare.requestsPerSecond;
  const sameRatio = r.hostpay.requestsPerSecond / r.same.requestsPerSecond;
  const each = r.ratios.map((x) => x.toFixed(2)).join(' ');
  const sameEach = r.sameRatios.map((x) => x.toFixed(2)).join(' ');
  const split = (side: Side) => `${r.user[side].toFixed(1)}+${r.system[side].toFixed(1)}`.padStart(11);
  const line = (label: string, side: Side, first: string) =>
    `${first.padEnd(30)} ${label.padEnd(8)} ${f(r[side].requestsPerSecond)} ${f(r[side].p50Ms, 2)} ${f(r[side].p99Ms, 2)}`;
  console.log(
    `${line('bare', 'bare', r.name)} ${''.padStart(7)} ${r.cpu.bare.toFixed(1).padStart(11)} ${split('bare')}`,
  );
  console.log(`${line('bare=', 'same', '')} ${''.padStart(7)} ${r.cpu.same.toFixed(1).padStart(11)} ${split('same')}`);
  console.log(
    `${line('hostpay', 'hostpay', '')} ${ratio.toFixed(2).padStart(7)} ${r.cpu.hostpay.toFixed(1).padStart(11)} ${split('hostpay')} ${(r.cpu.bare / r.cpu.hostpay).toFixed(2).padStart(10)}   (req/s ratio each run: ${each})`,
  );
  console.log(
    `${''.padEnd(30)} ${'vs bare='.padEnd(8)} ${''.padStart(29)} ${sameRatio.toFixed(2).padStart(7)} ${''.padStart(23)} ${(r.cpu.same / r.cpu.hostpay).toFixed(2).padStart(10)}   (req/s ratio each run: ${sameEach})`,
  );
}
console.log(
  'bare: the body with its type and length; bare=: the same bytes as hostpay, head and body (its headers, a fresh request id and RateLimit-Remaining per answer)',
);
const memory = processMemoryMb(children[0]?.pid);
if (memory)
  console.log(
    `hostpay server memory after the runs: RSS ${memory.rssMb.toFixed(0)} MB, peak ${memory.peakMb.toFixed(0)} MB (no child processes)`,
  );
if (big) {
  const wallets = `${base}/api/v1/cp/wallets`;
  const shape = { durationSeconds, connections, threads, runs: Number(opts['large-runs']) };
  const targets = [
    { name: 'wallets, 5-wallet merchant', url: wallets, headers },
    { name: 'wallets, 1,000-wallet merchant', url: wallets, headers: await bearerHeaders(big) },
  ];
  printLarge(await measureLarge(targets, shape), connections);
  const after = processMemoryMb(children[0]?.pid);
  if (after)
    console.log(
      `hostpay server memory after these runs: RSS ${after.rssMb.toFixed(0)} MB, peak ${after.peakMb.toFixed(0)} MB`,
    );
}
// Wait (up to 5 s) for the servers to exit: a --cpu-prof profile is written on the way out.
await Promise.all(
  children.map(
    (c) =>
      new Promise<void>((resolve) => {
        if (c.exitCode !== null || c.signalCode !== null) return resolve();
        const timer = setTimeout(resolve, 5000);
        c.once('exit', () => (clearTimeout(timer), resolve()));
        c.kill('SIGTERM');
      }),
  ),
);
await dropSchema();
if (Number(opts['startup-runs']) > 0) printStartup(await measureStartup(Number(opts['startup-runs'])));
if (Number(opts['client-rounds']) > 0)
  printClient(await measureClient({ baseline: opts['client-baseline'], rounds: Number(opts['client-rounds']) }));
process.exit(0);
