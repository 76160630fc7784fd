import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonSummary } from './helpers.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const PACKAGES = ['protocol', 'server', 'client', 'cli', 'medusa'] as const;

/**
 * What a user gets from the registry, tried without the workspace: each package is packed with
 * `npm pack` (dist/ as built) and installed into an empty project in the temp directory, where no
 * workspace, source file or symlink can help it resolve.
 */
let work: string;
const tarball: Record<string, string> = {};

/** npm's environment without what `npm test` put there (workspace, prefix, script settings). */
function npmEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^npm_/i.test(k) && !k.startsWith('HOSTPAY_')) env[k] = v;
  return env;
}

function emptyProject(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `try-${name}`, private: true, type: 'module' }));
  return dir;
}

async function npmInstall(dir: string, tarballs: string[]): Promise<void> {
  // The cache already holds every dependency (the workspace's own `npm ci` put it there).
  await run('npm', ['install', ...tarballs, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    env: npmEnv(),
  });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'hostpay-published-'));
  const out = join(work, 'tarballs');
  mkdirSync(out);
  await run(
    'npm',
    ['pack', '--pack-destination', out, '--loglevel=error', ...PACKAGES.flatMap((p) => ['-w', `@hostpay/${p}`])],
    { cwd: ROOT, env: npmEnv() },
  );
  for (const file of readdirSync(out)) {
    const name = /^hostpay-(\w+)-/.exec(file)?.[1];
    if (name) tarball[name] = join(out, file);
  }
}, 60_000);
// The installs below leave tens of thousands of files: removing them takes a while on a loaded machine.
afterAll(() => rmSync(work, { recursive: true, force: true }), 120_000);

describe('the published tarballs', () => {
  it('hold compiled JavaScript, declarations, README and LICENSE; no sources, tests or build state', async () => {
    expect(Object.keys(tarball).sort()).toEqual([...PACKAGES].sort());
    for (const pkg of PACKAGES) {
      const { stdout } = await run('tar', ['tzf', tarball[pkg]!]);
      const files = stdout.trim().split('\n');
      expect(files, pkg).toContain('package/dist/index.js');
      expect(files, pkg).toContain('package/dist/index.d.ts');
      expect(files, pkg).toContain('package/LICENSE');
      expect(files, pkg).toContain('package/package.json');
      expect(
        files.filter((f) => /^package\/(src|test)\/|\.tsbuildinfo$|\.chunks\.json$|\.bundle-|\.test\./.test(f)),
        pkg,
      ).toEqual([]);
    }
  });
});

describe('@hostpay/client installed alone', () => {
  let dir: string;
  beforeAll(async () => {
    dir = emptyProject('client');
    await npmInstall(dir, [tarball.client!]);
  }, 120_000);

  it('brings no dependency with it', () => {
    expect(
      readdirSync(join(dir, 'node_modules'))
        .filter((n) => !n.startsWith('.'))
        .sort(),
    ).toEqual(['@hostpay']);
    expect(readdirSync(join(dir, 'node_modules/@hostpay'))).toEqual(['client']);
  });

  it('imports from Node ESM', async () => {
    writeFileSync(
      join(dir, 'try.mjs'),
      "import { HostpayClient, isHostpayError, sign } from '@hostpay/client';\n" +
        "const c = new HostpayClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'hp_x', apiSecret: 'sk_x' });\n" +
        'console.log(typeof c.listWallets, typeof isHostpayError, typeof sign);\n',
    );
    const { stdout } = await run(process.execPath, ['try.mjs'], { cwd: dir });
    expect(stdout.trim()).toBe('function function function');
  });

  it('type-checks a TypeScript file that uses it (strict, NodeNext, library declarations checked)', async () => {
    writeFileSync(
      join(dir, 'try.ts'),
      [
        "import { HostpayClient, isHostpayError, type FeePreview, type Wallet } from '@hostpay/client';",
        "const client = new HostpayClient({ baseUrl: 'https://pay.example', apiKey: 'hp_x', apiSecret: 'sk_x' });",
        'export async function total(): Promise<string> {',
        '  const wallets: Wallet[] = await client.listWallets();',
        "  const fee: FeePreview = await client.previewFees({ amount: '100', currency: 'EUR' });",
        '  return wallets.map((w) => w.amount).join(",") + fee.fee;',
        '}',
        'export function code(e: unknown): string | undefined {',
        '  return isHostpayError(e) ? e.code : undefined;',
        '}',
        '',
      ].join('\n'),
    );
    const tsconfig = {
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['try.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const result = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir }).catch(
      (e: { stdout: string }) => e,
    );
    expect('stdout' in result ? result.stdout : '').toBe('');
  });
});

/**
 * The Medusa provider outside the workspace: only the client comes with it (Medusa is the shop's,
 * an optional peer dependency). Installed into a real Medusa store and loaded there by
 * packages/medusa/test/medusa-store.test.ts.
 */
describe('@hostpay/medusa installed with the client’s tarball', () => {
  it('brings nothing but the client, and ships its README and storefront example', async () => {
    const dir = emptyProject('medusa');
    await npmInstall(dir, [tarball.client!, tarball.medusa!]);
    expect(
      readdirSync(join(dir, 'node_modules'))
        .filter((n) => !n.startsWith('.'))
        .sort(),
    ).toEqual(['@hostpay']);
    expect(readdirSync(join(dir, 'node_modules/@hostpay')).sort()).toEqual(['client', 'medusa']);
    const shipped = readdirSync(join(dir, 'node_modules/@hostpay/medusa')).sort();
    expect(shipped).toEqual(['LICENSE', 'README.md', 'dist', 'examples', 'package.json']);
  }, 120_000);
});

describe('@hostpay/cli installed with its dependencies’ tarballs', () => {
  let dir: string;
  beforeAll(async () => {
    dir = emptyProject('cli');
    // better-sqlite3 compiles here when no prebuilt binary can be fetched, and with no lockfile
    // npm takes the newest versions in range, so tarballs the workspace's cache lacks are
    // downloaded (180 of them on 2026-11-28, when the registry took 2 minutes for one package and
    // this hook ran out of 300 s): give it time.
    await npmInstall(
      dir,
      PACKAGES.filter((p) => p !== 'medusa').map((p) => tarball[p]!),
    );
  }, 600_000);

  it('hostpay --version runs the compiled bin', async () => {
    const { stdout } = await run(join(dir, 'node_modules/.bin/hostpay'), ['--version'], { cwd: dir });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('hostpay serve --demo serves the demo: /healthz 200 and the printed key lists wallets', async () => {
    const child = spawn(
      join(dir, 'node_modules/.bin/hostpay'),
      ['serve', '--demo', '--port', '0', '--data-dir', join(dir, 'data'), '--json'],
      {
        cwd: dir,
        env: { ...npmEnv(), HOSTPAY_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const summary = await jsonSummary<{ url: string; demo: { apiKey: string; token: { accessToken: string } } }>(
        child,
        30_000,
      );
      expect((await fetch(`${summary.url}/healthz`)).status).toBe(200);
      expect(summary.demo.apiKey).toMatch(/^hp_/);
      expect(summary.demo.token.accessToken.split('.')).toHaveLength(3);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
