import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { encodingHelpers, lib } from './encoding.js';
import { FAMILIES, type FamilyName } from './index.js';

/** Spells the address of a derived point on this thread. */
export function encodeAddress(family: FamilyName, prefix: string, uncompressed: Uint8Array): string {
  return FAMILIES[family].encodeAddress(lib, prefix, uncompressed);
}

/**
 * What the address prefetch worker needs to spell addresses with the same code: the source of the
 * helpers and of each family's `encodeAddress` (self-contained functions), and where the
 * libraries they take are.
 */
export function encodingForWorker(): {
  helpers: string;
  families: Record<string, string>;
  modules: { sha3: string; sha2: string; legacy: string; base: string };
} {
  const resolve = createRequire(import.meta.url).resolve;
  const url = (specifier: string) => pathToFileURL(resolve(specifier)).href;
  return {
    helpers: encodingHelpers.toString(),
    families: Object.fromEntries(Object.entries(FAMILIES).map(([name, f]) => [name, f.encodeAddress.toString()])),
    modules: {
      sha3: url('@noble/hashes/sha3.js'),
      sha2: url('@noble/hashes/sha2.js'),
      legacy: url('@noble/hashes/legacy.js'),
      base: url('@scure/base'),
    },
  };
}
