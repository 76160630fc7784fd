import { spawn } from 'node:child_process';
import * as nodeModule from 'node:module';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What the shipped `hostpay serve` (the bundle, as the start-up benchmark runs it) has loaded once
 * it answers /healthz (issue 44: nothing is loaded at start that could wait for first use). A
 * preloaded module records the files loaded (the bundle's chunks and the packages left outside it)
 * and writes them with Node's list of its own modules: on SIGUSR2, and when the server exits.
 */
const BIN = fileURLToPath(new URL('../../cli/bin/hostpay.js', import.meta.url));

const PRELOAD = (report: string) => `import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
const files = [];
registerHooks({ load(url, context, next) { if (url.startsWith('file:')) files.push(url); return next(url, context); } });
const write = (suffix) => writeFileSync(${JSON.stringify(report)} + suffix, JSON.stringify({ builtins: process.moduleLoadList, files }));
process.on('SIGUSR2', () => write('.start'));
process.on('exit', () => write('.exit'));
`;

/**
 * The recorder needs module.registerHooks, new in Node 22.15; `engines` allows 22.14, where the
 * server runs but this one check cannot (CI runs the pinned Node 24, where it always runs).
 */
const HOOKS = typeof (nodeModule as { registerHooks?: unknown }).registerHooks === 'function';
if (!HOOKS)
  console.warn(
    `startup-modules: the loaded-modules check is skipped on Node ${process.version}: it needs 22.15 or newer`,
  );

interface Loaded {
  builtins: string[];
  files: string[];
}

/**
 * The packages of the API documentation (/docs, /openapi.json), loaded on its first request
 * (http/docs-app.ts): Swagger UI and the OpenAPI generator, and the compression plugin only
 * Swagger UI's files use.
 */
const DOCS_ONLY = /node_modules\/(@fastify\/(swagger|swagger-ui|static|compress)|yaml|mime-db)\//;

/**
 * Fastify's default schema compilers and what only they use (Fastify's own error serializer
 * takes two small files of fast-json-stringify's lib/, which stay).
 */
const NEVER_LOADED =
  /node_modules\/(ajv|ajv-formats|fast-uri|fast-json-stringify\/index\.js|@fastify\/(ajv-compiler|fast-json-stringify-compiler))/;

/** The compilers themselves, and Ajv. */
const COMPILERS = /node_modules\/(ajv|@fastify\/(ajv-compiler|fast-json-stringify-compiler))\//;

/** The source files behind the loaded files: a bundle chunk's come from its source map. */
function sourcesOf(loaded: Loaded): string[] {
  return loaded.files.flatMap((url) => {
    const file = fileURLToPath(url);
    if (!file.includes('/cli/dist/')) return [file];
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    return map.sources;
  });
}

describe('hostpay serve at start-up', () => {
  it.skipIf(!HOOKS)(
    'has loaded neither undici (an ES import of node:http would) nor the API documentation by its first /healthz',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hostpay-startup-modules-'));
      const preload = join(dir, 'preload.mjs');
      const report = join(dir, 'modules.json');
      writeFileSync(preload, PRELOAD(report));
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
        child.kill('SIGUSR2');
        while (!existsSync(`${report}.start`)) await new Promise((r) => setTimeout(r, 20));
        // The documentation's first requests load it: the check sees what it looks for.
        expect((await fetch(`${url}/openapi.json`)).status).toBe(200);
        expect(
          (await fetch(`${url}/docs/static/swagger-ui.css`, { headers: { 'accept-encoding': 'br' } })).status,
        ).toBe(200);
        child.kill('SIGTERM');
        await exited;
        const atStart = JSON.parse(readFileSync(`${report}.start`, 'utf8')) as Loaded;
        const atExit = JSON.parse(readFileSync(`${report}.exit`, 'utf8')) as Loaded;
        expect(atStart.builtins.filter((m) => m.includes('undici'))).toEqual([]);
        expect(sourcesOf(atStart).length).toBeGreaterThan(100);
        expect(sourcesOf(atStart).filter((f) => DOCS_ONLY.test(f))).toEqual([]);
        // The bidirectional algorithm waits for the first right-to-left line of a document, and
        // the native argon2 for the first password.
        expect(sourcesOf(atStart).filter((f) => /node_modules\/(bidi-js|@node-rs\/argon2)/.test(f))).toEqual([]);
        // Fastify's default compilers, never called (our own are given): not even parsed, as
        // they were while bundled into the chunk Fastify is in (cli/scripts/bundle.mjs).
        expect(sourcesOf(atStart).filter((f) => NEVER_LOADED.test(f))).toEqual([]);
        // Nor later: the documentation's own Fastify instance is given ours too.
        // (fast-uri comes then, with the OpenAPI generator's schema resolver.)
        expect(sourcesOf(atExit).filter((f) => COMPILERS.test(f))).toEqual([]);
        const later = new Set(sourcesOf(atExit).flatMap((f) => DOCS_ONLY.exec(f)?.[1] ?? []));
        expect([...later].sort()).toEqual([
          '@fastify/compress',
          '@fastify/static',
          '@fastify/swagger',
          '@fastify/swagger-ui',
          'mime-db',
          'yaml',
        ]);
      } finally {
        child.kill('SIGTERM');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      }
    },
    40_000,
  );

  it('loads only ASCII source: one other character makes Node hold a whole chunk as two-byte text', () => {
    const dist = fileURLToPath(new URL('../../cli/dist/', import.meta.url));
    const { current } = JSON.parse(readFileSync(join(dist, 'chunks/.chunks.json'), 'utf8')) as { current: string[] };
    const files = ['hostpay.js', ...current.filter((f) => f.endsWith('.js')).map((f) => `chunks/${f}`)];
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range ends at the last ASCII character
    expect(files.filter((f) => /[^\x00-\x7f]/.test(readFileSync(join(dist, f), 'utf8')))).toEqual([]);
  });
});
