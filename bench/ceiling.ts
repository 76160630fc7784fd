/**
 * Checkout create against the ceiling of this machine (issue 44, item 8): the real compiled
 * `hostpay serve` and a bare node:http server that writes the same rows, columns and indexes into
 * the same database (bench/ceiling-server.mjs: no authentication, pricing or address derivation,
 * the best batching), loaded alternately by wrk (1 thread, `--connections` 50, closed loop), round
 * after round, so both see the same machine. Prints each round's rates, their ratio, the serving
 * thread's CPU per create on both sides and the load average.
 *
 *   npm run bench:ceiling -- [--store sqlite|postgres|both] [--duration 5] [--rounds 3] [--connections 50]
 *                            [--bin packages/cli/bin/hostpay.js] [--server-node-args "--max-semi-space-size=2"]
 *
 * hostpay's creates are signed (version 2, single use) from a pool built before each run, as
 * bench/checkout.ts does (its file comment says why); the bare server takes the same bodies.
 * Figures in docs/benchmarks.md ("Against the ceiling").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { processMemoryMb } from './proc-memory.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import { PATHS, sign, signV2, unixTimestamp } from '@hostpay/protocol';
import { createServices, loadConfig, seedDemo } from '@hostpay/server';
import { eventBatchSql } from '../packages/server/src/features/events/batch.js';
import { deliveriesOwed } from '../packages/server/src/features/webhooks/queue.js';
import { dropPostgresSchema } from '../packages/server/src/store/postgres.js';
import { writeCreatePool } from './create-pool.js';
import { hasWrk, load } from './load.js';

const { values: opts } = parseArgs({
  options: {
    store: { type: 'string', default: 'both' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    bin: { type: 'string', default: 'packages/cli/bin/hostpay.js' },
    // Node options for hostpay's process only (not the bare server's), e.g. "--cpu-prof --cpu-prof-dir=/tmp/p".
    'server-node-args': { type: 'string', default: '' },
  },
});
if (!hasWrk()) {
  console.error('bench:ceiling needs wrk (apt-get install wrk)');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const duration = Number(opts.duration);
const rounds = Number(opts.rounds);
const connections = Number(opts.connections);
if (duration > 50) {
  console.error('--duration: at most 50 s (a signed pool is good for 60 s)');
  process.exit(2);
}
const children = new Set<ChildProcess>();
const dataDirs: string[] = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGTERM');
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
});
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
/** A thread's CPU so far, µs (utime + stime, 10 ms ticks), Linux; the main thread's by default. */
function threadCpuUs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10_000;
  } catch {
    return undefined;
  }
}
const middle = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
};

/** Spawns a node process and waits for `pattern` (its port) on its stdout. */
async function started(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = pattern.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${seen}`)));
  });
  return { child, port };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  children.delete(child);
}

/** The PostgreSQL statement of the bare server: create-batch.ts's rows and events, and the key's counter. */
function pgStatement(): string {
  const events = eventBatchSql('$5::json', '$6::json', [deliveriesOwed]);
  return `with
  c as (insert into checkouts select * from json_populate_recordset(null::checkouts, $1::json)),
  o as (insert into checkout_options select * from json_populate_recordset(null::checkout_options, $2::json)),
  a as (insert into deposit_addresses select * from json_populate_recordset(null::deposit_addresses, $3::json)),
  t as (insert into checkout_timeline select * from json_populate_recordset(null::checkout_timeline, $4::json)),
  k as (update account_keys set next_index = next_index + $7::int where id = $8::text returning 1),
  ${events.ctes}
${events.select}`;
}

interface Round {
  bare: number;
  hostpay: number;
}

async function measure(postgres: boolean) {
  const suffix = randomBytes(6).toString('hex');
  const url = process.env.HOSTPAY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `hp_ceiling_${suffix}`;
  const storeEnv: Record<string, string> = postgres
    ? {
        HOSTPAY_DATABASE_URL: url,
        HOSTPAY_DATABASE_SCHEMA: schema,
        HOSTPAY_REDIS_URL: process.env.HOSTPAY_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
        HOSTPAY_REDIS_PREFIX: `hp_ceiling_${suffix}:`,
      }
    : {};
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-ceiling-'));
  dataDirs.push(dataDir);
  const masterKey = randomBytes(32).toString('base64');
  const services = await createServices(
    loadConfig({ ...storeEnv, HOSTPAY_DATA_DIR: dataDir, HOSTPAY_MASTER_KEY: masterKey }),
  );
  const demo = await seedDemo(services, dataDir);
  const key = await services.admin.createApiKey(
    demo.merchantId,
    { rateLimitPerMinute: 1_000_000_000, label: 'bench' },
    { operator: 'bench' },
  );
  await services.close();
  // SQLite: the bare server writes its own copy of the seeded file (same schema and indexes).
  const bareFile = join(dataDir, 'ceiling.db');
  if (!postgres) copyFileSync(join(dataDir, 'hostpay.db'), bareFile);
  if (!postgres && existsSync(join(dataDir, 'hostpay.db-wal')))
    copyFileSync(join(dataDir, 'hostpay.db-wal'), `${bareFile}-wal`);

  const hostpay = await started(
    [...opts['server-node-args'].split(' ').filter(Boolean), opts.bin, 'serve', '--data-dir', dataDir, '--port', '0'],
    { ...process.env, ...storeEnv, HOSTPAY_MASTER_KEY: masterKey, HOSTPAY_LOG_LEVEL: 'warn' },
    /http:\/\/127\.0\.0\.1:(\d+)/,
  );
  const base = `http://127.0.0.1:${hostpay.port}`;
  const tokenBody = JSON.stringify({ expiresIn: 3600 });
  const ts0 = unixTimestamp();
  const tokenRes = await fetch(base + PATHS.token, {
    method: 'POST',
    headers: {
      'api-key': key.apiKey,
      timestamp: ts0,
      signature: sign(key.apiSecret, ts0, tokenBody),
      'content-type': 'application/json',
    },
    body: tokenBody,
  });
  const token = ((await tokenRes.json()) as { result: { accessToken: string } }).result.accessToken;
  const createPath = '/api/v1/cp/psp/hosted-pay';
  let orders = 0;
  const nextOrderId = () => `ceil-${suffix}-${++orders}`;
  const createBody = (orderId: string) =>
    JSON.stringify({ amount: '100', currency: 'EUR', orderId, paymentOptions: [{ asset: 'USDT', chain: 'TRON' }] });
  const signature = (timestamp: string, body: string) => signV2(key.apiSecret, timestamp, 'POST', createPath, body);
  const headersFor = (body: string, timestamp = unixTimestamp()) => ({
    'api-key': key.apiKey,
    timestamp,
    'signature-version': '2',
    signature: signature(timestamp, body),
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  });
  const probeBody = createBody(nextOrderId());
  const probe = await fetch(base + createPath, { method: 'POST', headers: headersFor(probeBody), body: probeBody });
  const probeText = await probe.text();
  if (probe.status !== 201) throw new Error(`create probe: ${probe.status} ${probeText}`);
  const answered = JSON.parse(probeText) as Record<string, unknown>;
  const view = (answered.result ?? answered) as { id: string };

  // The probe's own rows: the bare server's templates (the same columns and sizes).
  const templates = postgres
    ? await pgTemplates(url, schema, view.id)
    : sqliteTemplates(join(dataDir, 'hostpay.db'), view.id);
  const configFile = join(dataDir, 'ceiling.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      store: postgres ? 'postgres' : 'sqlite',
      file: bareFile,
      url,
      schema,
      statement: postgres ? pgStatement() : undefined,
      templates: { ...templates, view },
    }),
  );
  const bare = await started(['bench/ceiling-server.mjs', configFile], process.env, /listening (\d+)/);

  const [head, tail] = createBody('@order@').split('@order@') as [string, string];
  let pools = 0;
  /** A wrk script sending `count` distinct creates (signed now when `signed`), one per request. */
  const script = (count: number, signed: boolean) => {
    const timestamp = unixTimestamp();
    const file = writeCreatePool({
      dir: dataDir,
      n: ++pools,
      count,
      head,
      tail,
      nextOrderId,
      sign: (body) => (signed ? signature(timestamp, body) : 'unsigned'),
    });
    const { signature: _, ...headers } = headersFor(head + tail, timestamp);
    return { file, headers };
  };
  let poolRate = 15_000;
  /** One wrk run against `port`: rate, non-2xx, and the serving thread's CPU µs per create. */
  const run = async (port: number, pid: number, seconds: number, signed: boolean) => {
    const { file, headers } = script(Math.ceil(poolRate * seconds) + connections, signed);
    const cpu0 = threadCpuUs(pid);
    const r = await load({
      url: `http://127.0.0.1:${port}${createPath}`,
      headers,
      durationSeconds: seconds,
      connections,
      threads: 1,
      script: file,
    });
    const cpu1 = threadCpuUs(pid);
    const creates = r.requestsPerSecond * seconds;
    const cpuUs = cpu0 !== undefined && cpu1 !== undefined && creates > 0 ? (cpu1 - cpu0) / creates : NaN;
    return { rate: r.requestsPerSecond, non2xx: r.non2xx, cpuUs };
  };
  // Warm-ups (JIT, caches), not reported.
  const warmBare = await run(bare.port, bare.child.pid!, 3, false);
  poolRate = Math.max(2_000, 3 * warmBare.rate);
  await run(hostpay.port, hostpay.child.pid!, 3, true);
  const results: Round[] = [];
  const cpu = { bare: [] as number[], hostpay: [] as number[] };
  let refused = 0;
  for (let r = 0; r < rounds; r++) {
    // Alternate which goes first, so neither always follows the other's writeback.
    const order = r % 2 === 0 ? (['bare', 'hostpay'] as const) : (['hostpay', 'bare'] as const);
    const round: Partial<Round> = {};
    for (const side of order) {
      const target = side === 'bare' ? bare : hostpay;
      const x = await run(target.port, target.child.pid!, duration, side === 'hostpay');
      round[side] = x.rate;
      cpu[side].push(x.cpuUs);
      refused += x.non2xx;
    }
    results.push(round as Round);
  }
  const loadNow = loadAverage();
  // Issue 44, item 4: hostpay's memory after its creates (the warm-up's 3 s and every round's).
  const memory = {
    seconds: 3 + rounds * duration,
    ...(processMemoryMb(hostpay.child.pid) ?? { rssMb: Number.NaN, peakMb: Number.NaN }),
  };
  await stop(bare.child);
  await stop(hostpay.child);
  if (postgres) await dropPostgresSchema(url, schema);
  return { label: postgres ? 'PostgreSQL + Redis' : 'SQLite', results, cpu, load: loadNow, refused, memory };
}

function sqliteTemplates(file: string, checkoutId: string) {
  const db = new Database(file, { readonly: true });
  try {
    const checkout = db.prepare('select * from checkouts where id = ?').get(checkoutId);
    const option = db.prepare('select * from checkout_options where checkout_id = ?').get(checkoutId);
    const address = db.prepare('select * from deposit_addresses where checkout_id = ?').get(checkoutId);
    return { checkout, option, address };
  } finally {
    db.close();
  }
}

async function pgTemplates(url: string, schema: string, checkoutId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set search_path to "${schema}"`);
    const one = async (table: string) =>
      (await client.query(`select * from ${table} where checkout_id = $1`, [checkoutId])).rows[0] as unknown;
    const checkout = (await client.query('select * from checkouts where id = $1', [checkoutId])).rows[0] as unknown;
    return { checkout, option: await one('checkout_options'), address: await one('deposit_addresses') };
  } finally {
    await client.end();
  }
}

const stores = opts.store === 'both' ? [false, true] : [opts.store === 'postgres'];
const measured = [];
for (const postgres of stores) measured.push(await measure(postgres));
console.log(
  `\ncheckout create against the ceiling: wrk 1 thread, ${connections} connections, ${rounds} rounds × ${duration} s, bare and hostpay alternately`,
);
console.log(
  `${'store'.padEnd(20)} ${'bare /s'.padStart(9)} ${'hostpay /s'.padStart(11)} ${'ratio'.padStart(6)}  ${'per round'.padEnd(18)} thread CPU µs/create bare / hostpay   load average`,
);
for (const m of measured) {
  const bare = middle(m.results.map((r) => r.bare));
  const host = middle(m.results.map((r) => r.hostpay));
  const ratios = m.results.map((r) => r.hostpay / r.bare);
  console.log(
    `${m.label.padEnd(20)} ${bare.toFixed(0).padStart(9)} ${host.toFixed(0).padStart(11)} ${middle(ratios).toFixed(2).padStart(6)}  ${ratios
      .map((r) => r.toFixed(2))
      .join(' ')
      .padEnd(18)} ${middle(m.cpu.bare).toFixed(0)} / ${middle(m.cpu.hostpay).toFixed(0)}${' '.repeat(22)}${m.load}`,
  );
}
for (const m of measured)
  console.log(
    `${m.label}: hostpay RSS after ${m.memory.seconds} s of creates ${m.memory.rssMb.toFixed(0)} MB, peak ${m.memory.peakMb.toFixed(0)} MB (issue 44: ≤ 160)`,
  );
const refused = measured.filter((m) => m.refused > 0);
for (const m of refused)
  console.error(`ERROR: ${m.label}: ${m.refused} answers were not 2xx (the figures count refusals)`);
process.exit(refused.length > 0 ? 1 : 0);
