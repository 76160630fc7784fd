import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bech32, createBase58check } from '@scure/base';
import type { EncodeLib } from './family.js';

/** Base58check with double SHA-256, as BIP-32 keys, Bitcoin base58 and TRON addresses are spelled. */
export const base58check = createBase58check(sha256);

/**
 * The helpers every family's `encodeAddress` may use. The prefetch worker evaluates this
 * function's source with its own imports of the same libraries: only its parameter and built-ins.
 */
export function encodingHelpers(lib: Pick<EncodeLib, 'keccak_256'>): Pick<EncodeLib, 'hexOf' | 'eip55' | 'compress'> {
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
  return { hexOf, eip55, compress };
}

const raw = { keccak_256, sha256, ripemd160, bech32: bech32 as EncodeLib['bech32'], base58check };

/** This thread's encoding library. */
export const lib: EncodeLib = { ...raw, ...encodingHelpers(raw) };

/** EIP-55 checksum spelling of a lower-case hex address (40 digits, no 0x). */
export const eip55 = (lowerHex: string): string => lib.eip55(lowerHex);

/** A 20-byte account nobody holds a key for (EVM and TRON share them): see evm/index.ts. */
const BURNS = new Set(['dead000000000000000000000000000000000000', 'dead000000000000000042069420694206942069']);

/**
 * The zero address and everything up to 0x…ffff (precompiles, 0x…dEaD; no key can be found for
 * 18 leading zero bytes), 0xdEaD followed by zeros, and the well-known 0xdead…42069 burn.
 */
export function isBurn20(bytes: Uint8Array): boolean {
  if (bytes.length !== 20) return false;
  if (bytes.subarray(0, 18).every((b) => b === 0)) return true;
  return BURNS.has(Buffer.from(bytes).toString('hex'));
}

const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

/** `amount` × 10^decimals as an integer string, rounded up: a payer never sends less than due. */
export function baseUnits(amount: string, decimals: number): string {
  const m = DECIMAL_RE.exec(amount);
  if (m === null) throw new RangeError(`not a non-negative decimal: ${amount}`);
  const whole = m[1] ?? '0';
  const fraction = m[2] ?? '';
  const kept = fraction.slice(0, decimals).padEnd(decimals, '0');
  let units = BigInt(whole + kept);
  if (/[1-9]/.test(fraction.slice(decimals))) units += 1n;
  return units.toString();
}

/** `amount` with at most `decimals` fractional digits, rounded up, without trailing zeros. */
export function ceilDecimal(amount: string, decimals: number): string {
  const units = baseUnits(amount, decimals).padStart(decimals + 1, '0');
  const whole = units.slice(0, units.length - decimals);
  const fraction = units.slice(units.length - decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
