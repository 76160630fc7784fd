/**
 * Start-up figures a user feels, measured on the compiled build:
 *  - `hostpay --version` (node bin, and through `npx`), wall time per run;
 *  - `hostpay serve` from spawn to the first 200 of GET /healthz (embedded SQLite, fresh data dir),
 *    beside bare node:http (bench/bare-server.mjs answering /healthz) started the same way in the
 *    same run, with the ratio (issue 44, item 5: ≤ 2×), and the server's RSS idle 3 s after its
 *    first answer (item 4: ≤ 100 MB); the same with NODE_COMPILE_CACHE filled, and a restart on a
 *    data directory an earlier start migrated.
 * Medians of `--runs` runs (default 7). Run alone with `npm run bench:startup`; `npm run bench`
 * prints the same table after the throughput one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { processMemoryMb } from './proc-memory.js';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_BIN = join(root, 'packages/cli/bin/hostpay.js');

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeCommand(cmd: string, args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Node's on-disk compile cache is off by default (docs/deploy.md: it saves part of a start and
 * costs resident memory). The serve rows start without it; one row starts with NODE_COMPILE_CACHE
 * naming a folder of this run that earlier starts of this run filled, as every start after a
 * machine's first would find it.
 */
let warmCache = '';

/** The RSS of the last server timed, 3 s after its first answer (`idleRss`). */
const idle = { rssMb: [] as number[] };

interface StartOptions {
  /** Arguments after `serve` (e.g. `--demo`). */
  extra?: string[];
  /** bench/bare-server.mjs answering /healthz instead of hostpay, started the same way. */
  bare?: boolean;
  /** Also read the server's RSS 3 s after its first answer. */
  idleRss?: boolean;
  /** NODE_COMPILE_CACHE for the server; none when absent. */
  compileCache?: string;
  /** A data directory to start on and keep (a restart), instead of a fresh one. */
  existing?: { dir: string; masterKey: string };
}

/** Spawn → first 200 of /healthz, polled every 2 ms. */
async function timeServerStart(
  bin: string,
  { extra = [], bare = false, idleRss = false, compileCache, existing }: StartOptions = {},
): Promise<number> {
  const dataDir = existing?.dir ?? mkdtempSync(join(tmpdir(), 'hostpay-startup-'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOSTPAY_MASTER_KEY: existing?.masterKey ?? randomBytes(32).toString('base64'),
    HOSTPAY_LOG_LEVEL: 'warn',
  };
  if (compileCache === undefined) delete env.NODE_COMPILE_CACHE;
  else env.NODE_COMPILE_CACHE = compileCache;
  const bodies = join(dataDir, 'bodies.json');
  if (bare) writeFileSync(bodies, JSON.stringify({ '/healthz': '{"status":"ok"}' }));
  const args = bare
    ? [join(root, 'bench/bare-server.mjs'), bodies, String(port)]
    : [bin, 'serve', ...extra, '--port', String(port), '--data-dir', dataDir];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    for (;;) {
      if (performance.now() - t0 > 30_000) throw new Error('server did not answer /healthz within 30 s');
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) {
        const ms = performance.now() - t0;
        if (idleRss) {
          await new Promise((r) => setTimeout(r, 3000));
          idle.rssMb.push(processMemoryMb(child.pid)?.rssMb ?? Number.NaN);
        }
        return ms;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    if (existing === undefined) rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function measureStartup(
  runs: number,
  bin = DEFAULT_BIN,
): Promise<{ name: string; medianMs: number; all: number[] }[]> {
  const rows: { name: string; medianMs: number; all: number[] }[] = [];
  const collect = async (name: string, once: () => number | Promise<number>) => {
    await once(); // warm the file cache, as a second start of the day would be
    const all: number[] = [];
    for (let i = 0; i < runs; i++) all.push(await once());
    rows.push({ name, medianMs: median(all), all });
  };
  warmCache = mkdtempSync(join(tmpdir(), 'hostpay-compile-cache-'));
  await collect('hostpay --version (node bin)', () => timeCommand(process.execPath, [bin, '--version']));
  await collect('npx hostpay --version', () => timeCommand('npx', ['hostpay', '--version']));
  // Bare and hostpay alternately, so both see the same machine.
  const bareAll: number[] = [];
  const serveAll: number[] = [];
  const cachedAll: number[] = [];
  const restartAll: number[] = [];
  // A restart: the same data directory each time, migrated by the first start.
  const kept = { dir: mkdtempSync(join(tmpdir(), 'hostpay-startup-')), masterKey: randomBytes(32).toString('base64') };
  await timeServerStart(bin, { bare: true });
  await timeServerStart(bin);
  await timeServerStart(bin, { compileCache: warmCache });
  await timeServerStart(bin, { existing: kept });
  for (let i = 0; i < runs; i++) {
    bareAll.push(await timeServerStart(bin, { bare: true }));
    serveAll.push(await timeServerStart(bin, { idleRss: i < 3 }));
    cachedAll.push(await timeServerStart(bin, { compileCache: warmCache }));
    restartAll.push(await timeServerStart(bin, { existing: kept }));
  }
  rmSync(kept.dir, { recursive: true, force: true });
  rows.push({ name: 'bare node:http → /healthz 200', medianMs: median(bareAll), all: bareAll });
  rows.push({ name: 'hostpay serve → /healthz 200', medianMs: median(serveAll), all: serveAll });
  rows.push({ name: 'serve, NODE_COMPILE_CACHE filled', medianMs: median(cachedAll), all: cachedAll });
  rows.push({ name: 'serve, restart (migrated data dir)', medianMs: median(restartAll), all: restartAll });
  // `npm start` is `hostpay serve --demo`: a fresh data directory each run, so the demo data is
  // seeded every time (README's "answers … after `npm start`" comes from this row).
  await collect('hostpay serve --demo → /healthz 200', () => timeServerStart(bin, { extra: ['--demo'] }));
  rmSync(warmCache, { recursive: true, force: true });
  return rows;
}

export function printStartup(rows: { name: string; medianMs: number; all: number[] }[]): void {
  console.log(`\nstart-up (compiled build, Node ${process.version}; median of ${rows[0]?.all.length} runs)`);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(34)} ${r.medianMs.toFixed(0).padStart(6)} ms   (each: ${r.all.map((x) => x.toFixed(0)).join(' ')})`,
    );
  const bare = rows.find((r) => r.name.startsWith('bare'));
  const serve = rows.find((r) => r.name.startsWith('hostpay serve →'));
  if (bare !== undefined && serve !== undefined)
    console.log(`serve / bare start: ${(serve.medianMs / bare.medianMs).toFixed(2)} × (target ≤ 2)`);
  if (idle.rssMb.length > 0)
    console.log(
      `hostpay serve RSS idle 3 s after its first answer: ${idle.rssMb.map((x) => x.toFixed(0)).join(' ')} MB (target ≤ 100)`,
    );
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = Number(process.argv[2] ?? 7);
  // `npx tsx bench/startup.ts 7 packages/cli/dist/run.js` times the unbundled tsc output instead.
  printStartup(await measureStartup(runs, process.argv[3] === undefined ? DEFAULT_BIN : join(root, process.argv[3])));
}
