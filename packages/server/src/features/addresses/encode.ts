import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, createBase58check } from '@scure/base';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export type ChainFamily = 'btc' | 'evm' | 'tron';

/** The hash and encoding functions an address is spelled with. */
export interface EncoderLib {
  keccak_256: (data: Uint8Array) => Uint8Array;
  sha256: (data: Uint8Array) => Uint8Array;
  ripemd160: (data: Uint8Array) => Uint8Array;
  bech32: { encode: (prefix: string, words: number[]) => string; toWords: (bytes: Uint8Array) => number[] };
  base58check: { encode: (data: Uint8Array) => string };
}

/**
 * How each chain family spells the address of a public key. The address prefetch worker
 * (prefetch.ts) evaluates this function's source text with its own imports of the same
 * libraries, so both threads run this one piece of code: it may use only its parameter and
 * JavaScript built-ins, never a name from this module.
 */
export function addressEncoder(lib: EncoderLib) {
  const hexOf = (bytes: Uint8Array): string => {
    let out = '';
    for (const b of bytes) out += (b < 16 ? '0' : '') + b.toString(16);
    return out;
  };
  /** EIP-55: each hex letter upper case where the keccak-256 of the lower-case address has a nibble >= 8. */
  const eip55 = (lowerHex: string): string => {
    const hash = hexOf(lib.keccak_256(new TextEncoder().encode(lowerHex)));
    let out = '0x';
    for (let i = 0; i < lowerHex.length; i++)
      out += Number.parseInt(hash[i] as string, 16) >= 8 ? (lowerHex[i] as string).toUpperCase() : lowerHex[i];
    return out;
  };
  /** SEC1 compression of an uncompressed point: the prefix carries y's parity. */
  const compress = (uncompressed: Uint8Array): Uint8Array => {
    const out = new Uint8Array(33);
    out[0] = ((uncompressed[64] as number) & 1) === 1 ? 0x03 : 0x02;
    out.set(uncompressed.subarray(1, 33), 1);
    return out;
  };
  /** `hrp`: the bech32 prefix of the BTC network (unused for the other families). */
  const address = (family: ChainFamily, hrp: string, uncompressed: Uint8Array): string => {
    if (family === 'btc')
      return lib.bech32.encode(hrp, [0, ...lib.bech32.toWords(lib.ripemd160(lib.sha256(compress(uncompressed))))]);
    const account = lib.keccak_256(uncompressed.subarray(1)).subarray(12);
    if (family === 'tron') return lib.base58check.encode(Uint8Array.of(0x41, ...account));
    return eip55(hexOf(account));
  };
  return { address, eip55, compress };
}

/** Base58check with double SHA-256, as BIP-32 keys and TRON addresses are spelled. */
export const base58check = createBase58check(sha256);

/** This thread's encoder. */
export const encoder = addressEncoder({
  keccak_256,
  sha256,
  ripemd160,
  bech32: bech32 as EncoderLib['bech32'],
  base58check,
});

/** What the worker needs to build the same encoder: the factory's source and where its libraries are. */
export function encoderForWorker(): {
  source: string;
  modules: { sha3: string; sha2: string; legacy: string; base: string };
} {
  const resolve = createRequire(import.meta.url).resolve;
  const url = (specifier: string) => pathToFileURL(resolve(specifier)).href;
  return {
    source: addressEncoder.toString(),
    modules: {
      sha3: url('@noble/hashes/sha3.js'),
      sha2: url('@noble/hashes/sha2.js'),
      legacy: url('@noble/hashes/legacy.js'),
      base: url('@scure/base'),
    },
  };
}
