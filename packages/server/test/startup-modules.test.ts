import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What the shipped `hostpay serve` (the bundle, as the start-up benchmark runs it) has loaded once
 * it answers /healthz (issue 44: nothing is loaded at start that could wait for first use). A
 * preloaded module writes Node's list of its own modules loaded, when the server exits.
 */
const BIN = fileURLToPath(new URL('../../cli/bin/hostpay.js', import.meta.url));

describe('hostpay serve at start-up', () => {
  it('has not loaded undici (an ES import of node:http would) by its first /healthz', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostpay-startup-modules-'));
    const preload = join(dir, 'preload.mjs');
    const report = join(dir, 'modules.json');
    writeFileSync(
      preload,
      `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));\n`,
    );
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('HOSTPAY_')) env[k] = v;
    const child = spawn(
      process.execPath,
      ['--import', preload, BIN, 'serve', '--json', '--port', '0', '--data-dir', join(dir, 'data')],
      {
        env: {
          ...env,
          HOSTPAY_LOG_LEVEL: 'warn',
          HOSTPAY_CONFIG_DIR: dir,
          HOSTPAY_MASTER_KEY: randomBytes(32).toString('base64'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        const timer = setTimeout(() => reject(new Error(`no start-up summary: ${out} ${err}`)), 25_000);
        child.stderr?.on('data', (d: Buffer) => {
          err += d.toString();
        });
        child.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          try {
            resolve((JSON.parse(out) as { url: string }).url);
            clearTimeout(timer);
          } catch {
            // not the whole document yet
          }
        });
      });
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      child.kill('SIGTERM');
      await exited;
      const modules = JSON.parse(readFileSync(report, 'utf8')) as string[];
      expect(modules.filter((m) => m.includes('undici'))).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  it('loads only ASCII source: one other character makes Node hold a whole chunk as two-byte text', () => {
    const dist = fileURLToPath(new URL('../../cli/dist/', import.meta.url));
    const { current } = JSON.parse(readFileSync(join(dist, 'chunks/.chunks.json'), 'utf8')) as { current: string[] };
    const files = ['hostpay.js', ...current.filter((f) => f.endsWith('.js')).map((f) => `chunks/${f}`)];
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range ends at the last ASCII character
    expect(files.filter((f) => /[^\x00-\x7f]/.test(readFileSync(join(dist, f), 'utf8')))).toEqual([]);
  });
});
