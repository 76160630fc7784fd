import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseCurve, curveModules, type TweakCurve } from '../src/features/addresses/tweak-curve.js';

/**
 * Deposit addresses take P + t·G from native libsecp256k1 where it loads, else from its
 * WebAssembly build (tweak-curve.ts). Both must give the same bytes for every point and tweak, the
 * choice must fall back rather than trust a build that disagrees, and the address worker, which
 * runs the chooser's source text, must choose alike.
 */
const require = createRequire(import.meta.url);
const wasm = require('tiny-secp256k1') as TweakCurve & {
  pointFromScalar(scalar: Uint8Array, compressed: boolean): Uint8Array | null;
};
const ORDER = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
const bytes32 = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
const scalar = fc.bigInt({ min: 1n, max: ORDER - 1n });

describe('libsecp256k1, native and WebAssembly', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hp-curve-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const modules = curveModules();
  const chosen = chooseCurve(require, modules);

  it('the native build is installed and chosen on linux-x64 (its prebuilt addon ships in the package)', () => {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      console.warn(
        `[hostpay tests] native secp256k1 not asserted on ${process.platform}-${process.arch}: prebuilt for linux-x64 only here`,
      );
      return;
    }
    expect(modules.native).toMatch(/secp256k1[/\\]bindings\.js$/);
    expect(chosen.kind).toBe('native');
  });

  it("its known answer is the WebAssembly build's: P = 7…7·G, t = 9…9", () => {
    const source = chooseCurve.toString();
    const point = wasm.pointFromScalar(new Uint8Array(32).fill(7), false)!;
    const sum = wasm.pointAddScalar(point, new Uint8Array(32).fill(9), false)!;
    expect(source).toContain(Buffer.from(point).toString('hex'));
    expect(source).toContain(Buffer.from(sum).toString('hex'));
  });

  it('gives the WebAssembly build bytes for any parent point and tweak, compressed or not', () => {
    fc.assert(
      fc.property(scalar, scalar, fc.boolean(), (k, t, compressed) => {
        const point = wasm.pointFromScalar(bytes32(k), compressed)!;
        const tweak = bytes32(t);
        const expected = wasm.pointAddScalar(point, tweak, compressed);
        const got = chosen.curve.pointAddScalar(point, tweak, compressed);
        expect(got === null ? null : Buffer.from(got).toString('hex')).toBe(
          expected === null ? null : Buffer.from(expected).toString('hex'),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('answers null, as the WebAssembly build does, when P + t·G is the point at infinity (BIP-32 then retries)', () => {
    const k = 123456789n;
    const point = wasm.pointFromScalar(bytes32(k), false)!;
    const tweak = bytes32(ORDER - k);
    expect(wasm.pointAddScalar(point, tweak, false)).toBeNull();
    expect(chosen.curve.pointAddScalar(point, tweak, false)).toBeNull();
  });

  it('falls back to WebAssembly when the native build is missing, fails to load, or disagrees', () => {
    const wrong = join(dir, 'wrong.cjs');
    writeFileSync(wrong, 'exports.publicKeyTweakAdd = () => new Uint8Array(65).fill(4);');
    const broken = join(dir, 'broken.cjs');
    writeFileSync(broken, 'throw new Error("no addon for this platform");');
    for (const native of [null, join(dir, 'absent.cjs'), broken, wrong]) {
      const c = chooseCurve(require, { native, wasm: modules.wasm });
      expect(c.kind, String(native)).toBe('wasm');
      expect(c.curve).toBe(wasm);
    }
  });

  it('its source text alone, on a worker thread as the address worker runs it, chooses the same and agrees', async () => {
    const source = `
const { parentPort, workerData } = require('node:worker_threads');
const { kind, curve } = (${chooseCurve.toString()})(require, workerData.modules);
parentPort.postMessage({ kind, point: curve.pointAddScalar(workerData.point, workerData.tweak, false) });`;
    const point = wasm.pointFromScalar(bytes32(42n), false)!;
    const tweak = bytes32(77n);
    const worker = new Worker(source, { eval: true, workerData: { modules, point, tweak } });
    try {
      const [answer] = (await once(worker, 'message')) as [{ kind: string; point: Uint8Array }];
      expect(answer.kind).toBe(chosen.kind);
      expect(Buffer.from(answer.point)).toEqual(Buffer.from(wasm.pointAddScalar(point, tweak, false)!));
    } finally {
      await worker.terminate();
    }
  });
});
