/**
 * Report export throughput and memory (issue 45): seeds 1,000,000 ledger postings on one wallet,
 * then reads the `ledger` report as CSV into a sink that takes each chunk as it comes (the route
 * hands the same stream to the socket), on embedded SQLite and on PostgreSQL. Prints rows/s and
 * the RSS growth (peak RSS sampled every 20 ms during the export − RSS just before it).
 * Targets: ≥ 100,000 rows/s and < 50 MB growth on each store. Each store is measured in a process of
 * its own (the one that serves the export), so one store's heap is never the other's baseline.
 * It runs the built server (`npm run build` first): the code a user runs.
 *
 *   npm run bench:reports [-- --rows 1000000 --format csv|ndjson --store sqlite|postgres]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { getHeapSpaceStatistics } from 'node:v8';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createServices, type Services } from '@hostpay/server';
import { sql } from 'kysely';
import { dropPostgresSchema } from '../packages/server/src/store/postgres.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    format: { type: 'string', default: 'csv' },
    store: { type: 'string' },
    // checkouts: SQLite only, checkouts without options or payments (their rows' own cost).
    kind: { type: 'string', default: 'ledger' },
    'database-url': {
      type: 'string',
      default: process.env.HOSTPAY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
  },
});
const ROWS = Number(values.rows);
const FORMAT = values.format === 'ndjson' ? 'ndjson' : 'csv';
const KIND = values.kind === 'checkouts' ? 'checkouts' : 'ledger';
const START = Date.parse('2026-01-01T00:00:00Z');
/** One posting every 10 ms: a million fit in under three hours of one day. */
const STEP_MS = 10;

async function seed(services: Services, dialect: 'sqlite' | 'postgres'): Promise<string> {
  const ctx = { operator: 'bench' };
  const merchantId = (await services.admin.createMerchant('Report Bench', ctx)).id;
  const walletId = (await services.admin.createWallet({ merchantId, asset: 'USDT', chain: 'TRON' }, ctx)).id;
  const db = services.store.db;
  if (KIND === 'checkouts') {
    if (dialect === 'postgres') throw new Error('--kind checkouts is seeded on SQLite only');
    await sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${ROWS})
      insert into checkouts (id, merchant_id, status, reason, amount, currency, fee, order_id, metadata,
        tolerance_percent, expires_at, created_at, updated_at)
      select 'chk_bench' || printf('%09d', i), ${merchantId}, 'expired', 'no_payment', cast(i as text), 'EUR', '0',
        'order-' || i, '{}', '0', t, t, t
      from (select i, strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * ${STEP_MS / 1000.0}, 'unixepoch') as t from s)`.execute(
      db,
    );
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    return merchantId;
  }
  // Written straight into the table (a million posting calls would take the bench's whole budget):
  // each a credit of 1, balances counting up, times 10 ms apart.
  if (dialect === 'postgres')
    await sql`insert into ledger_postings (id, wallet_id, kind, amount, idempotency_key, amount_after, freeze_amount_after, created_at)
      select 'pst_bench' || lpad(i::text, 9, '0'), ${walletId}, 'credit', 1, 'bench:' || i, i, 0,
        ${new Date(START).toISOString()}::timestamptz + i * interval '${sql.raw(String(STEP_MS))} milliseconds'
      from generate_series(1, ${ROWS}::int) as i`.execute(db);
  else
    await sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${ROWS})
      insert into ledger_postings (id, wallet_id, kind, amount, idempotency_key, amount_after, freeze_amount_after, created_at)
      select 'pst_bench' || printf('%09d', i), ${walletId}, 'credit', '1', 'bench:' || i, cast(i as text), '0',
        strftime('%Y-%m-%dT%H:%M:%fZ', ${START / 1000} + i * ${STEP_MS / 1000.0}, 'unixepoch')
      from s`.execute(db);
  if (dialect === 'postgres') await sql`analyze ledger_postings`.execute(db);
  // The seed's WAL (hundreds of MB) is copied into the database now, not by the checkpoint worker
  // in the middle of the export, where its memory counted as the export's (up to 250 MB of RSS).
  else await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
  return merchantId;
}

async function measure(services: Services, merchantId: string) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const base = process.memoryUsage();
  const oldBase = getHeapSpaceStatistics().find((x) => x.space_name === 'old_space')!.space_used_size;
  const peaks = { heapUsed: 0, external: 0 };
  // Samples taken: the export yields to the event loop between pages, or the sampler never runs
  // and the "peak" is only the RSS at the end (how the SQLite figures were misread before).
  let samples = 0;
  const timer = setInterval(() => {
    samples++;
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    peaks.heapUsed = Math.max(peaks.heapUsed, m.heapUsed - base.heapUsed);
    peaks.external = Math.max(peaks.external, m.external - base.external);
  }, 20);
  let bytes = 0;
  let lines = 0;
  const t0 = performance.now();
  const file = await services.reports.download(
    merchantId,
    KIND,
    { from: new Date(START).toISOString(), to: new Date(START + 86_400_000).toISOString(), format: FORMAT },
    START + 2 * 86_400_000,
  );
  await pipeline(
    file.stream,
    new Writable({
      write(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        done();
      },
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  const end = process.memoryUsage();
  peak = Math.max(peak, end.rss);
  peaks.heapUsed = Math.max(peaks.heapUsed, end.heapUsed - base.heapUsed);
  peaks.external = Math.max(peaks.external, end.external - base.external);
  // Old generation at the end (before any collection): what the export left for a full collection.
  const old = getHeapSpaceStatistics().find((x) => x.space_name === 'old_space')!.space_used_size;
  const rows = FORMAT === 'csv' ? lines - 1 : lines;
  if (rows !== ROWS) throw new Error(`exported ${rows} rows, seeded ${ROWS}`);
  return {
    rows,
    seconds,
    rowsPerSecond: rows / seconds,
    mb: bytes / 1e6,
    growthMb: (peak - before) / 1e6,
    heapMb: peaks.heapUsed / 1e6,
    externalMb: peaks.external / 1e6,
    oldMb: (old - oldBase) / 1e6,
    samples,
  };
}

async function run(dialect: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-bench-reports-'));
  const schema = `hp_bench_reports_${randomBytes(4).toString('hex')}`;
  const config =
    dialect === 'postgres'
      ? {
          dataDir,
          databaseUrl: values['database-url']!,
          databaseSchema: schema,
          masterKey: '',
          // The seed is one statement of a million rows: past the serving default of 5 s.
          databaseTimeoutMs: 600_000,
        }
      : { dataDir, databaseUrl: '', masterKey: '' };
  const services = await createServices(config, { generateMasterKey: true });
  try {
    const t0 = performance.now();
    const merchantId = await seed(services, dialect);
    const seeded = (performance.now() - t0) / 1000;
    const r = await measure(services, merchantId);
    console.log(
      `${dialect.padEnd(8)} ${r.rows.toLocaleString('en')} ${KIND} rows ${FORMAT}, ${r.mb.toFixed(0)} MB in ${r.seconds.toFixed(2)} s: ` +
        `${Math.round(r.rowsPerSecond).toLocaleString('en')} rows/s, RSS growth ${r.growthMb.toFixed(1)} MB (heap ${r.heapMb.toFixed(1)}, of it old generation ${r.oldMb.toFixed(1)} at the end; external ${r.externalMb.toFixed(1)}; ${r.samples} samples; seeded in ${seeded.toFixed(1)} s)`,
    );
    return r;
  } finally {
    await services.close();
    if (dialect === 'postgres') await dropPostgresSchema(values['database-url']!, schema);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (values.store === undefined) {
  // One child process per store, with the same options.
  let ok = true;
  for (const store of ['sqlite', 'postgres']) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, process.argv[1]!, ...process.argv.slice(2), '--store', store],
      {
        stdio: 'inherit',
      },
    );
    if (child.status !== 0) ok = false;
  }
  console.log(ok ? 'targets met: ≥ 100,000 rows/s and < 50 MB RSS growth' : 'TARGETS MISSED');
  process.exitCode = ok ? 0 : 1;
} else {
  const r = await run(values.store as 'sqlite' | 'postgres');
  console.log(
    `  load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  process.exitCode = r.rowsPerSecond < 100_000 || r.growthMb >= 50 ? 1 : 0;
}
