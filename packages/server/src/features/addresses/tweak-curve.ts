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
 * The native build if it loads on this platform and gives the WebAssembly build's bytes on a fixed
 * case, else the WebAssembly build. Self-contained, without imports or outer names, because the
 * address worker runs its source too (features/addresses/prefetch.ts): both threads choose alike.
 */
export function chooseCurve(
  load: (path: string) => unknown,
  modules: CurveModules,
): { kind: 'native' | 'wasm'; curve: TweakCurve } {
  const wasm = load(modules.wasm) as TweakCurve & {
    pointFromScalar(scalar: Uint8Array, compressed: boolean): Uint8Array | null;
  };
  if (modules.native !== null) {
    try {
      const native = load(modules.native) as {
        publicKeyTweakAdd(point: Uint8Array, tweak: Uint8Array, compressed: boolean): Uint8Array;
      };
      const point = wasm.pointFromScalar(new Uint8Array(32).fill(7), false);
      const tweak = new Uint8Array(32).fill(9);
      if (point !== null) {
        const expected = wasm.pointAddScalar(point, tweak, false);
        const got = native.publicKeyTweakAdd(Uint8Array.from(point), tweak, false);
        if (expected !== null && got.length === expected.length && got.every((b, i) => b === expected[i])) {
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
      }
    } catch {
      // Not built for this platform, or it failed the check: the WebAssembly build serves.
    }
  }
  return { kind: 'wasm', curve: wasm };
}

let chosen: ReturnType<typeof chooseCurve> | undefined;

/** This thread's curve, chosen on the first address (loading either build costs a start nothing otherwise). */
export function tweakCurve(): ReturnType<typeof chooseCurve> {
  chosen ??= chooseCurve(createRequire(import.meta.url), curveModules());
  return chosen;
}
