import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleText } from '../scripts/build.js';
import { startRealServer, type RealServer } from './helpers/real-server.js';

// The zero-dependency client promises Node, Bun, Deno and edge runtimes. Each runtime here runs the
// published bundle (dist/index.js as `npm run build` writes it) against the real server on
// 127.0.0.1: it signs requests the server verifies (HMAC through Web Crypto or node:crypto, a token,
// a query string), parses answers whose amounts no double can hold, and gets the error code of a
// request signed with the wrong secret. The runtimes come from the npm registry, pinned in
// .ci/runtimes/package-lock.json; .ci/run installs them, so in CI none may be missing.
const RUNTIMES = fileURLToPath(new URL('../../../.ci/runtimes/node_modules/', import.meta.url));
const BINARIES = {
  bun: `${RUNTIMES}@oven/bun-linux-x64/bin/bun`,
  deno: `${RUNTIMES}@deno/linux-x64-glibc/deno`,
  workerd: `${RUNTIMES}@cloudflare/workerd-linux-64/bin/workerd`,
};
const run = promisify(execFile);

/** What every runtime must print: exact decimals as strings, exactly as the server wrote them. */
interface Probe {
  smallest: string;
  large: string;
  walletAmounts: string[];
  wrongSecret: string;
}

/** The probe as an ES module: `main()` returns the Probe; each runtime calls it its own way. */
function probeModule(server: RealServer): string {
  const options = { baseUrl: server.url, apiKey: server.demo.apiKey, apiSecret: server.demo.apiSecret };
  return `import { HostpayClient, isHostpayError } from './client.mjs';
const options = ${JSON.stringify(options)};
export async function main() {
  const client = new HostpayClient(options);
  const smallest = await client.previewFees({ amount: '0.000000000000000001', currency: 'USDT' });
  const large = await client.previewFees({ amount: '123456789012.123456789012345678', currency: 'USDT' });
  const wallets = await client.listWallets();
  const wrong = await new HostpayClient({ ...options, apiSecret: options.apiSecret + 'x' }).listWallets().catch((e) => e);
  return {
    smallest: smallest.amount,
    large: large.amount,
    walletAmounts: wallets.map((w) => w.amount + '/' + w.freezeAmount),
    wrongSecret: isHostpayError(wrong) ? wrong.code : String(wrong),
  };
}`;
}

const CLI_RUNNER = `import { main } from './probe.mjs';
console.log(JSON.stringify(await main()));`;

const WORKER = `import { main } from './probe.mjs';
export default {
  async fetch() {
    try {
      return Response.json(await main());
    } catch (e) {
      return new Response(String(e && e.stack || e), { status: 500 });
    }
  },
};`;

/** workerd's configuration: the worker on a loopback socket; its fetch() may reach loopback only. */
const workerdConfig = (port: number) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "probe.mjs", esModule = embed "probe.mjs"),
    (name = "client.mjs", esModule = embed "client.mjs"),
  ],
  compatibilityDate = "2026-07-01",
  globalOutbound = "loopback",
);`;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let server: RealServer;
let dir: string;
let expected: Probe;
const missing = Object.entries(BINARIES)
  .filter(([, file]) => !existsSync(file))
  .map(([name]) => name);
if (missing.length > 0) {
  const reason = `client runtime tests: ${missing.join(', ')} not installed (npm ci --prefix .ci/runtimes --ignore-scripts)`;
  // In CI .ci/run installs them: a missing runtime there is a failure, not a skip.
  if (process.env.CI) throw new Error(`${reason}; CI must run them`);
  console.warn(`skipping ${reason}`);
}

beforeAll(async () => {
  server = await startRealServer();
  dir = mkdtempSync(join(tmpdir(), 'hostpay-client-runtimes-'));
  writeFileSync(join(dir, 'client.mjs'), await bundleText());
  writeFileSync(join(dir, 'probe.mjs'), probeModule(server));
  writeFileSync(join(dir, 'run.mjs'), CLI_RUNNER);
  writeFileSync(join(dir, 'worker.mjs'), WORKER);
  // What the client in this (vitest, Node) process reads is the reference every runtime must match.
  const probe = (await import(pathToFileURL(join(dir, 'probe.mjs')).href)) as { main(): Promise<Probe> };
  expected = await probe.main();
}, 30_000);
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the client bundle in each runtime, against the real server on 127.0.0.1', () => {
  it('reference (this process): exact amounts and the wrong secret refused', () => {
    expect(expected.smallest).toBe('0.000000000000000001');
    expect(expected.large).toBe('123456789012.123456789012345678');
    expect(expected.walletAmounts.length).toBeGreaterThan(0);
    expect(expected.wrongSecret).toBe('INVALID_SIGNATURE');
  });

  const cli = async (file: string, args: string[]): Promise<Probe> => {
    const { stdout } = await run(file, args, {
      cwd: dir,
      timeout: 30_000,
      env: { PATH: process.env.PATH ?? '', HOME: dir, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    });
    return JSON.parse(stdout) as Probe;
  };

  it(`Node ${process.version}`, async () => {
    expect(await cli(process.execPath, ['run.mjs'])).toEqual(expected);
  });

  it.skipIf(missing.includes('bun'))('Bun', async () => {
    expect(await cli(BINARIES.bun, ['run.mjs'])).toEqual(expected);
  });

  it.skipIf(missing.includes('deno'))('Deno (network access to 127.0.0.1 only)', async () => {
    const port = new URL(server.url).port;
    expect(await cli(BINARIES.deno, ['run', '--no-config', `--allow-net=127.0.0.1:${port}`, 'run.mjs'])).toEqual(
      expected,
    );
  });

  it.skipIf(missing.includes('workerd'))('workerd (the Cloudflare Workers runtime)', async () => {
    const port = await freePort();
    writeFileSync(join(dir, 'config.capnp'), workerdConfig(port));
    let child: ChildProcess | undefined;
    let log = '';
    try {
      child = spawn(BINARIES.workerd, ['serve', 'config.capnp'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout?.on('data', (b: Buffer) => (log += b));
      child.stderr?.on('data', (b: Buffer) => (log += b));
      // Bounded wait for the socket: 100 tries, 100 ms apart.
      let answer: Response | undefined;
      for (let i = 0; i < 100 && answer === undefined; i++) {
        answer = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
        if (answer === undefined) await new Promise((r) => setTimeout(r, 100));
      }
      expect(answer, log).toBeDefined();
      const text = await answer!.text();
      expect(answer!.status, `${text}\n${log}`).toBe(200);
      expect(JSON.parse(text)).toEqual(expected);
    } finally {
      child?.kill('SIGTERM');
    }
  });
});
