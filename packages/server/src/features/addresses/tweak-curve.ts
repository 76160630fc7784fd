import { createRequire } from 'node:module';

/** The one operation deposit addresses need from secp256k1: P + t·G (null when BIP-32 says retry). */
export interface TweakCurve {
  pointAddScalar(point: Uint8Array, tweak: Uint8Array, compressed: boolean): Uint8Array | null;
}

/** Where the two builds of libsecp256k1 are: native (null when not installed) and WebAssembly. */
export interface CurveModules {
  native: string | null;
  wasm: string;
}

/**
 * libsecp256k1 comes twice (docs/benchmarks.md, "Dependencies"): the `secp256k1` package's native
 * N-API build, 36 against 141 µs per child point, prebuilt for linux-x64 (glibc and musl),
 * darwin-arm64 and win32-x64 (its install script, which would compile for other platforms, is not
 * run: `allowScripts`); and tiny-secp256k1's WebAssembly build, which runs everywhere. Only the
 * package's `bindings.js` is loaded, never its index, whose fallback is the `elliptic` library.
 */
export function curveModules(): CurveModules {
  const require = createRequire(import.meta.url);
  let native: string | null = null;
  try {
    native = require.resolve('secp256k1/bindings.js');
  } catch {
    native = null;
  }
  return { native, wasm: require.resolve('tiny-secp256k1') };
}

/**
 * The native build if it loads on this platform and gives the known answer (the WebAssembly
 * build's, for P = 7…7·G and t = 9…9, checked in test/tweak-curve.test.ts), else the WebAssembly
 * build, which is only loaded then: compiling it costs each thread ~15 ms and ~16 MB. Self-contained,
 * without imports or outer names, because the address worker runs its source too
 * (features/addresses/prefetch.ts): both threads choose alike.
 */
export function chooseCurve(
  load: (path: string) => unknown,
  modules: CurveModules,
): { kind: 'native' | 'wasm'; curve: TweakCurve } {
  if (modules.native !== null) {
    try {
      const native = load(modules.native) as {
        publicKeyTweakAdd(point: Uint8Array, tweak: Uint8Array, compressed: boolean): Uint8Array;
      };
      const point = Buffer.from(
        '04989c0b76cb563971fdc9bef31ec06c3560f3249d6ee9e5d83c57625596e05f6f631f4d05b3ae518776ee08755a7703e64b2ebc32547504de0b55a142d4ecdf80',
        'hex',
      );
      const expected =
        '04a92c9b7cac68758de5783ed8e5123598e4ad137091e42987d3bad8a08e35bf3d06cb29b6bf80c6c009f584c32bbb934ba9acd303c47c9cd6512d96ae800289cb';
      const got = native.publicKeyTweakAdd(Uint8Array.from(point), new Uint8Array(32).fill(9), false);
      if (Buffer.from(got).toString('hex') === expected) {
        // libsecp256k1 refuses what the WebAssembly build answers null for (the point at infinity).
        const pointAddScalar = (p: Uint8Array, t: Uint8Array, compressed: boolean): Uint8Array | null => {
          try {
            return native.publicKeyTweakAdd(p, t, compressed);
          } catch {
            return null;
          }
        };
        return { kind: 'native', curve: { pointAddScalar } };
      }
    } catch {
      // Not built for this platform, or it failed the check: the WebAssembly build serves.
    }
  }
  return { kind: 'wasm', curve: load(modules.wasm) as TweakCurve };
}

let chosen: ReturnType<typeof chooseCurve> | undefined;

/** This thread's curve, chosen on the first address (loading either build costs a start nothing otherwise). */
export function tweakCurve(): ReturnType<typeof chooseCurve> {
  chosen ??= chooseCurve(createRequire(import.meta.url), curveModules());
  return chosen;
}
