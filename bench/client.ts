/**
 * Client overhead, in-process (no network): `npx tsx bench/client.ts [--baseline <git rev>]`.
 *
 *  - `listWallets()` per call against a fetch that answers at once with a canned body (the real
 *    server's bytes for the 5-wallet demo merchant and for a 1,000-wallet merchant); the cost of
 *    that stand-in fetch (a `Response` and its `text()`) is measured alone and shown beside it;
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
  execSync(`git archive ${rev} packages/client/src | tar -x -C ${JSON.stringify(dir)}`, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
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
  /** µs per call, medians. */
  listWallets5: number;
  listWallets1000: number;
  sign: number;
  parse5: number;
  /** ms. */
  parse1000Ms: number;
  /** µs per call of the stand-in fetch alone (Response + text()), 5 and 1,000 wallets. */
  harness5: number;
  harness1000: number;
}

export async function measureClient(options: { baseline?: string | undefined; rounds?: number } = {}): Promise<ClientFigures[]> {
  const { small, large } = await walletBodies();
  const dir = mkdtempSync(join(tmpdir(), 'hostpay-bench-client-src-'));
  try {
    const impls: Impl[] = [];
    if (options.baseline) impls.push(await loadRevision(options.baseline, dir));
    impls.push({
      name: 'this tree',
      client: await import('../packages/client/src/index.js'),
      decimals: await import('../packages/client/src/decimals.js'),
    });
    const ok = (body: string) => `{"isSuccess":true,"message":"OK","result":${body.slice(body.indexOf('"result":') + 9, -1)}}`;
    const envelope = { small: ok(small), large: ok(large) };
    const token = JSON.stringify({ isSuccess: true, message: 'OK', result: { accessToken: 'tok', tokenType: 'Bearer', expiresIn: 3600, expiresAt: new Date(Date.now() + 3_600_000).toISOString(), scope: ['wallets:read'] } });
    const headers = { 'content-type': 'application/json; charset=utf-8' };
    const stub = (body: string) => async (url: string) => new Response(url.endsWith('/token') ? token : body, { status: 200, headers });
    const clients = impls.map((impl) => ({
      small: new impl.client.HostpayClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'hp_bench', apiSecret: 'sk_bench_secret', fetch: stub(envelope.small) }),
      large: new impl.client.HostpayClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'hp_bench', apiSecret: 'sk_bench_secret', fetch: stub(envelope.large) }),
    }));
    // Exactness first: a fast wrong answer is not a result.
    for (const [i, c] of clients.entries()) {
      const a = JSON.stringify(await c.large.listWallets());
      const b = JSON.stringify(await clients[0]!.large.listWallets());
      if (a !== b) throw new Error(`${impls[i]!.name} and ${impls[0]!.name} disagree on the 1,000-wallet list`);
    }
    const rounds = options.rounds ?? 9;
    const samples = impls.map(() => ({ listWallets5: [] as number[], listWallets1000: [] as number[], sign: [] as number[], parse5: [] as number[], parse1000Ms: [] as number[], harness5: [] as number[], harness1000: [] as number[] }));
    for (let round = -1; round < rounds; round++) {
      for (const [i, impl] of impls.entries()) {
        const s = samples[i]!;
        const c = clients[i]!;
        const r = {
          harness5: await timeOp(2000, () => stub(envelope.small)('x').then((res) => res.text())),
          harness1000: await timeOp(40, () => stub(envelope.large)('x').then((res) => res.text())),
          listWallets5: await timeOp(2000, () => c.small.listWallets()),
          listWallets1000: await timeOp(40, () => c.large.listWallets()),
          sign: await timeOp(2000, () => impl.client.sign('sk_bench_secret', '1700000000', '')),
          parse5: await timeOp(2000, () => impl.decimals.parseJson(envelope.small, 'string')),
          parse1000Ms: (await timeOp(40, () => impl.decimals.parseJson(envelope.large, 'string'))) / 1000,
        };
        if (round < 0) continue; // warm-up: let the JIT settle
        for (const k of Object.keys(r) as (keyof typeof r)[]) s[k].push(r[k]);
      }
    }
    return impls.map((impl, i) => {
      const s = samples[i]!;
      return {
        impl: impl.name,
        listWallets5: median(s.listWallets5),
        listWallets1000: median(s.listWallets1000),
        sign: median(s.sign),
        parse5: median(s.parse5),
        parse1000Ms: median(s.parse1000Ms),
        harness5: median(s.harness5),
        harness1000: median(s.harness1000),
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printClient(rows: ClientFigures[], sizes?: { small: number; large: number }): void {
  const f = (n: number, d = 1) => n.toFixed(d).padStart(10);
  console.log(`\nclient overhead (in-process, canned responses, Node ${process.version}; medians of rounds)${sizes ? ` — bodies ${sizes.small} B and ${sizes.large} B` : ''}`);
  console.log(`${'client'.padEnd(22)} ${'list 5 µs'.padStart(10)} ${'(fetch)'.padStart(10)} ${'list 1k µs'.padStart(10)} ${'(fetch)'.padStart(10)} ${'sign µs'.padStart(10)} ${'parse 5 µs'.padStart(10)} ${'parse 1k ms'.padStart(11)}`);
  for (const r of rows) {
    console.log(`${r.impl.padEnd(22)} ${f(r.listWallets5)} ${f(r.harness5)} ${f(r.listWallets1000, 0)} ${f(r.harness1000, 0)} ${f(r.sign, 2)} ${f(r.parse5)} ${f(r.parse1000Ms, 2).padStart(11)}`);
  }
  console.log(`(fetch) = the stand-in fetch alone (new Response + text()), included in the list figure; the client's own overhead is the difference.`);
  if (rows.length === 2) {
    const [a, b] = rows as [ClientFigures, ClientFigures];
    console.log(`speed-up: list 5 ×${(a.listWallets5 / b.listWallets5).toFixed(1)}, overhead 5 ×${((a.listWallets5 - a.harness5) / (b.listWallets5 - b.harness5)).toFixed(1)}, sign ×${(a.sign / b.sign).toFixed(1)}, parse 1k ×${(a.parse1000Ms / b.parse1000Ms).toFixed(1)}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { baseline: { type: 'string' }, rounds: { type: 'string', default: '9' } } });
  const { small, large } = await walletBodies();
  printClient(await measureClient({ baseline: values.baseline, rounds: Number(values.rounds) }), { small: Buffer.byteLength(small), large: Buffer.byteLength(large) });
  process.exit(0);
}
