/**
 * Client overhead, in-process (no network): `npx tsx bench/client.ts [--baseline <git rev>]`.
 *
 *  - `listWallets()` per call against a fetch that answers at once with a canned body (the real
 *    server's bytes for the 5-wallet demo merchant and for a 1,000-wallet merchant). The stand-in
 *    answers with a minimal Response-like object, so the figure is the client's own work; the
 *    same call answered with a real `Response`, and a `Response` + `text()` alone (what any real
 *    fetch costs at least, ~20-40 µs on Node 20), are shown beside it;
 *  - `sign()` (the HMAC of one GET) and the exact-decimal parse of the two bodies.
 *
 * `--baseline <rev>` extracts packages/client/src at that revision (git archive) and measures it
 * in the same process, round by round alternating with the working tree's client, so a shared,
 * loaded machine slows both alike; the figures are medians of the rounds.
 */
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createServices, loadConfig, seedDemo } from '@hostpay/server';
import { seedBigMerchant } from './big-merchant.js';

type ClientModule = typeof import('../packages/client/src/index.js');
type DecimalsModule = typeof import('../packages/client/src/decimals.js');
interface Impl {
  name: string;
  client: ClientModule;
  decimals: DecimalsModule;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The client sources at `rev`, unpacked into a temp dir and imported from there. */
async function loadRevision(rev: string, dir: string): Promise<Impl> {
  execSync(`git archive ${rev} packages/client/src | tar -x -C ${JSON.stringify(dir)}`, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const src = join(dir, 'packages/client/src');
  return {
    name: `baseline ${rev}`,
    client: (await import(pathToFileURL(join(src, 'index.ts')).href)) as ClientModule,
    decimals: (await import(pathToFileURL(join(src, 'decimals.ts')).href)) as DecimalsModule,
  };
}

/** The real server's wallet-list bodies: the demo merchant (5 wallets) and a 1,000-wallet one. */
export async function walletBodies(): Promise<{ small: string; large: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'hostpay-bench-client-'));
  try {
    const config = loadConfig({ HOSTPAY_DATA_DIR: dataDir, HOSTPAY_MASTER_KEY: randomBytes(32).toString('base64') });
    const services = await createServices(config);
    const demo = await seedDemo(services, dataDir);
    const big = await seedBigMerchant(services, 1000);
    const small = await services.merchant.walletListBody(demo.merchantId);
    const large = await services.merchant.walletListBody(big.merchantId);
    await services.close();
    return { small, large };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** µs per operation over `n` runs of `op` (awaited only when it returns a promise). */
async function timeOp(n: number, op: () => unknown): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const r = op();
    if (r instanceof Promise) await r;
  }
  return ((performance.now() - t0) * 1000) / n;
}

export interface ClientFigures {
  impl: string;
  /** µs per call, medians: the client's own work (minimal Response-like answer). */
  list5: number;
  list1000: number;
  /** µs per call answered with a real Response (5 wallets), and that Response + text() alone. */
  list5Response: number;
  response5: number;
  sign: number;
  parse5: number;
  /** ms. */
  parse1000Ms: number;
}

export async function measureClient(
  options: { baseline?: string | undefined; rounds?: number; bodies?: { small: string; large: string } } = {},
): Promise<ClientFigures[]> {
  const { small, large } = options.bodies ?? (await walletBodies());
  const dir = mkdtempSync(join(tmpdir(), 'hostpay-bench-client-src-'));
  try {
    const impls: Impl[] = [];
    if (options.baseline) impls.push(await loadRevision(options.baseline, dir));
    impls.push({
      name: 'this tree',
      client: await import('../packages/client/src/index.js'),
      decimals: await import('../packages/client/src/decimals.js'),
    });
    const token = JSON.stringify({
      isSuccess: true,
      message: 'OK',
      result: {
        accessToken: 'tok',
        tokenType: 'Bearer',
        expiresIn: 3600,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        scope: ['wallets:read'],
      },
    });
    const headers = { 'content-type': 'application/json; charset=utf-8' };
    const real = (body: string) => async (url: string) =>
      new Response(url.endsWith('/token') ? token : body, { status: 200, headers });
    const noHeaders = { get: () => null };
    const light = (body: string) => async (url: string) => {
      const text = url.endsWith('/token') ? token : body;
      return { ok: true, status: 200, headers: noHeaders, text: async () => text } as unknown as Response;
    };
    const make = (impl: Impl, fetch: (url: string) => Promise<Response>) =>
      new impl.client.HostpayClient({
        baseUrl: 'http://127.0.0.1:1',
        apiKey: 'hp_bench',
        apiSecret: 'sk_bench_secret',
        fetch,
      });
    const clients = impls.map((impl) => ({
      small: make(impl, light(small)),
      large: make(impl, light(large)),
      smallReal: make(impl, real(small)),
    }));
    // Exactness first: a fast wrong answer is not a result.
    for (const [i, c] of clients.entries()) {
      const a = JSON.stringify(await c.large.listWallets());
      const b = JSON.stringify(await clients[0]!.large.listWallets());
      if (a !== b || !a.includes('"amount":"'))
        throw new Error(`${impls[i]!.name} and ${impls[0]!.name} disagree on the 1,000-wallet list`);
    }
    const rounds = options.rounds ?? 9;
    type Sample = Omit<ClientFigures, 'impl'>;
    const samples = impls.map(() => ({}) as { [K in keyof Sample]: number[] });
    for (let round = -1; round < rounds; round++) {
      for (const [i, impl] of impls.entries()) {
        const c = clients[i]!;
        const r: Sample = {
          list5: await timeOp(3000, () => c.small.listWallets()),
          list1000: await timeOp(40, () => c.large.listWallets()),
          list5Response: await timeOp(2000, () => c.smallReal.listWallets()),
          response5: await timeOp(2000, () => real(small)('x').then((res) => res.text())),
          sign: await timeOp(3000, () => impl.client.sign('sk_bench_secret', '1700000000', '')),
          parse5: await timeOp(3000, () => impl.decimals.parseJson(small, 'string')),
          parse1000Ms: (await timeOp(40, () => impl.decimals.parseJson(large, 'string'))) / 1000,
        };
        if (round < 0) continue; // warm-up: let the JIT settle
        const s = samples[i]!;
        for (const k of Object.keys(r) as (keyof Sample)[]) (s[k] ??= []).push(r[k]);
      }
    }
    return impls.map((impl, i) => {
      const s = samples[i]!;
      const out = { impl: impl.name } as ClientFigures;
      for (const k of Object.keys(s) as (keyof Sample)[]) out[k] = median(s[k]);
      return out;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printClient(rows: ClientFigures[], sizes?: { small: number; large: number }): void {
  const f = (n: number, d = 1, w = 10) => n.toFixed(d).padStart(w);
  console.log(
    `\nclient overhead per call (in-process, canned answers${sizes ? ` of ${sizes.small} B and ${sizes.large} B` : ''}; Node ${process.version}; medians of rounds)`,
  );
  console.log(
    `${'client'.padEnd(22)} ${'list 5 µs'.padStart(10)} ${'list 1k µs'.padStart(10)} ${'sign µs'.padStart(8)} ${'parse 5 µs'.padStart(10)} ${'parse 1k ms'.padStart(11)} ${'list 5 + Response µs'.padStart(20)} ${'Response alone µs'.padStart(17)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.impl.padEnd(22)} ${f(r.list5)} ${f(r.list1000, 0)} ${f(r.sign, 1, 8)} ${f(r.parse5)} ${f(r.parse1000Ms, 2, 11)} ${f(r.list5Response, 1, 20)} ${f(r.response5, 1, 17)}`,
    );
  }
  console.log(
    "list: listWallets() with an instant minimal answer (the client's own work); + Response: the same answered with a real Response, whose construction and text() alone cost the last column.",
  );
  if (rows.length === 2) {
    const [a, b] = rows as [ClientFigures, ClientFigures];
    console.log(
      `speed-up, this tree vs ${a.impl}: list 5 ×${(a.list5 / b.list5).toFixed(1)}, list 1k ×${(a.list1000 / b.list1000).toFixed(1)}, sign ×${(a.sign / b.sign).toFixed(1)}, parse 5 ×${(a.parse5 / b.parse5).toFixed(1)}, parse 1k ×${(a.parse1000Ms / b.parse1000Ms).toFixed(1)}`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '9' } } });
  const bodies = await walletBodies();
  const rows = await measureClient({ baseline: values.baseline, rounds: Number(values.rounds), bodies });
  printClient(rows, { small: Buffer.byteLength(bodies.small), large: Buffer.byteLength(bodies.large) });
  process.exit(0);
}
