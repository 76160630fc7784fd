import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { BIN, cleanEnv, tempDir } from './helpers.js';

/**
 * Node's compile cache is the operator's choice (NODE_COMPILE_CACHE, docs/deploy.md). When it is
 * chosen, `serve` writes it a second after it listens, so a server that is later killed with -9
 * (never reaching Node's write at exit) still leaves the next start a filled cache.
 */
const dirs: Array<{ remove(): void }> = [];
afterAll(() => {
  for (const d of dirs) d.remove();
});

it('serve writes NODE_COMPILE_CACHE while it runs: a server killed with -9 leaves it filled', async () => {
  const data = tempDir();
  const cache = tempDir();
  dirs.push(data, cache);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    env: cleanEnv({
      HOSTPAY_LOG_LEVEL: 'warn',
      HOSTPAY_MASTER_KEY: randomBytes(32).toString('base64'),
      HOSTPAY_DATA_DIR: data.dir,
      NODE_COMPILE_CACHE: cache.dir,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((r) => child.once('exit', r));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no banner in 30 s')), 30_000);
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('listening on')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    // Nothing yet, then the cache of the modules start-up compiled, without the process exiting.
    // Node makes its folder (one per Node version) when it starts; the cache is the files in it.
    const files = () =>
      readdirSync(cache.dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    const until = Date.now() + 10_000;
    while (files() === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(files()).toBeGreaterThan(0);
    expect(child.exitCode).toBeNull();
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}, 45_000);
