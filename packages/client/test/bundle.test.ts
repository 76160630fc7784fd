import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions, bundleText } from '../scripts/build.js';
import { API_KEY, API_SECRET, startFakeHostpay, type FakeHostpay } from './helpers/fake-hostpay.js';
import { PUBLIC_RUNTIME_EXPORTS } from './helpers/public-api.js';

const BUDGET = 8 * 1024;
let text: string;
let dir: string;
let server: FakeHostpay;

beforeAll(async () => {
  text = await bundleText();
  dir = mkdtempSync(join(tmpdir(), 'hostpay-client-bundle-'));
  server = await startFakeHostpay();
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the bundled client (esbuild, minified)', () => {
  it(`is at most ${BUDGET} bytes gzipped`, () => {
    const gzipped = gzipSync(text).length;
    console.info(`@hostpay/client bundle: ${text.length} bytes minified, ${gzipped} bytes gzipped`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET);
  });

  it('is self-contained: no imports, no Node built-ins', () => {
    expect(text).not.toMatch(/\bfrom\s*["']|\bimport\s*\(|\brequire\s*\(|node:/);
  });

  it('runs: the built file signs requests the server accepts and keeps amounts exact', async () => {
    const file = join(dir, 'index.mjs');
    writeFileSync(file, text);
    const built = (await import(pathToFileURL(file).href)) as typeof import('../src/index.js');
    expect(Object.keys(built).sort()).toEqual(PUBLIC_RUNTIME_EXPORTS);
    const client = new built.HostpayClient({ baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET });
    const [wallet] = await client.listWallets();
    expect(wallet?.amount).toBe('1234567890.123456789012345678');
    const error = await new built.HostpayClient({ baseUrl: server.url, apiKey: 'nope', apiSecret: 'x' })
      .listWallets()
      .catch((e: unknown) => e);
    expect(built.isHostpayError(error) && error.code).toBe('UNKNOWN_API_KEY');
  });

  it('runs with only web globals (no process, Buffer, require), as on an edge runtime', async () => {
    const script = await build({
      ...bundleOptions,
      format: 'iife',
      globalName: 'hostpay',
      write: false,
      outfile: 'x.js',
    });
    const web = {
      fetch,
      crypto,
      TextEncoder,
      AbortController,
      AbortSignal,
      DOMException,
      URLSearchParams,
      setTimeout,
      clearTimeout,
    };
    const context = createContext({ ...web });
    runInContext(script.outputFiles?.[0]?.text ?? '', context);
    expect(runInContext('typeof process + typeof Buffer + typeof require', context)).toBe(
      'undefinedundefinedundefined',
    );
    const { HostpayClient } = (context as { hostpay: typeof import('../src/index.js') }).hostpay;
    const client = new HostpayClient({ baseUrl: server.url, apiKey: API_KEY, apiSecret: API_SECRET });
    const preview = await client.previewFees({ amount: '0.000000000000000001', currency: 'usdt' });
    expect(preview.amount).toBe('0.000000000000000001');
  });
});
