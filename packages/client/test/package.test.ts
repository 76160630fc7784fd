import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as client from '@hostpay/client';
import { PUBLIC_RUNTIME_EXPORTS } from './helpers/public-api.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as Record<string, unknown>;

describe('the package as a user imports it (@hostpay/client)', () => {
  it('exports the public API and nothing else at runtime', () => {
    expect(Object.keys(client).sort()).toEqual(PUBLIC_RUNTIME_EXPORTS);
  });

  it('builds a working client', async () => {
    const c = new client.HostpayClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', apiSecret: 's', maxRetries: 0 });
    const error = await c.serverTime().catch((e: unknown) => e);
    expect(client.isHostpayError(error)).toBe(true);
  });

  it('is ESM, side-effect free, with an exports map with types and no runtime dependencies', () => {
    expect(manifest).toMatchObject({ name: '@hostpay/client', type: 'module', sideEffects: false, dependencies: {} });
    expect(manifest.exports).toMatchObject({ '.': { types: expect.any(String), default: expect.any(String) } });
    expect(Object.keys(manifest.exports as object)[0]).toBe('.');
  });
});

describe('source rules', () => {
  const files = readdirSync(`${root}src`).map((name) => ({ name, text: readFileSync(`${root}src/${name}`, 'utf8') }));

  it('uses no Node built-ins or Node globals', () => {
    for (const { name, text } of files) {
      expect(text, name).not.toMatch(/from ['"]node:|\bimport\(|\brequire\(|\bprocess\.|\bBuffer\b/);
    }
  });

  it("reaches Node's crypto only from hmac.ts, through the guarded run-time lookup", () => {
    for (const { name, text } of files) {
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const uses = code.match(/\bprocess\b\S*/g) ?? [];
      expect(uses, name).toEqual(name === 'hmac.ts' ? ['process?:', "process?.getBuiltinModule?.('crypto')"] : []);
    }
  });

  it('imports nothing at runtime: only relative imports and `import type` from the protocol', () => {
    for (const { name, text } of files) {
      for (const [, what, from] of text.matchAll(/^import (type )?[^;]*? from '([^']+)';/gms)) {
        if (!from?.startsWith('./')) expect(what, `${name} imports ${from}`).toBe('type ');
      }
    }
  });

  // 200 since the formatter (120 columns) wraps what used to be one long line: the same code, more lines.
  it('keeps files small', () => {
    for (const { name, text } of files) expect(text.split('\n').length, name).toBeLessThan(200);
  });
});

describe('the README says what dist/ is and how to install the tarball (issue 26, item 11)', () => {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Quick start'));

  it('gives the pack and install commands, with the tarball name npm pack writes', () => {
    const version = (manifest as { version: string }).version;
    expect(install).toContain('npm pack -w @hostpay/client --pack-destination /tmp');
    expect(install).toContain(`npm install /tmp/hostpay-client-${version}.tgz`);
  });

  it('describes dist/ as one module per source file, not a single file', () => {
    expect(readme).not.toMatch(/one minified ESM file/);
    const sources = readdirSync(`${root}src`).filter((f) => f.endsWith('.ts'));
    const modules = readdirSync(`${root}dist`).filter((f) => f.endsWith('.js'));
    expect(modules.sort()).toEqual(sources.map((f) => f.replace(/\.ts$/, '.js')).sort());
    expect(install).toContain('one ES module per source file');
  });
});
