import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';

/**
 * A real local EVM node for the watcher tests: anvil from @foundry-rs/anvil, whose platform
 * package carries the binary (linux x64/arm64, macOS, Windows x64). Where no such package exists
 * for this platform the tests are skipped with the reason printed; with CI=true they fail instead.
 */
const PLATFORM: Record<string, string> = {
  'linux-x64': 'linux-amd64',
  'linux-arm64': 'linux-arm64',
  'darwin-x64': 'darwin-amd64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'win32-amd64',
};

export const anvilBinary: string | null = (() => {
  const suffix = PLATFORM[`${process.platform}-${process.arch}`];
  const why = (reason: string) => {
    if (process.env.CI === 'true') throw new Error(`anvil is required in CI: ${reason}`);
    console.warn(`[hostpay tests] EVM watcher suites skipped: ${reason}`);
    return null;
  };
  if (suffix === undefined) return why(`no anvil binary is published for ${process.platform}-${process.arch}`);
  try {
    const pkg = createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${suffix}/package.json`);
    const bin = join(dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
    return existsSync(bin) ? bin : why(`${bin} is missing`);
  } catch {
    return why(`@foundry-rs/anvil-${suffix} is not installed (npm ci installs it where it exists)`);
  }
})();

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Anvil {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts anvil on a free loopback port (chain id 31337 unless told, blocks mined per transaction). */
export async function startAnvil(opts: { chainId?: number } = {}): Promise<Anvil> {
  if (anvilBinary === null) throw new Error('no anvil binary');
  const port = await freePort();
  const child: ChildProcess = spawn(
    anvilBinary,
    [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--accounts',
      '3',
      '--silent',
      ...(opts.chainId === undefined ? [] : ['--chain-id', String(opts.chainId)]),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited) throw new Error(`anvil exited at start (exit code ${child.exitCode})`);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('anvil did not answer within 20 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
