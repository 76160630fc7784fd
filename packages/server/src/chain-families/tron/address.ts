import { base58check } from '../encoding.js';

/** TRON's address prefix byte (mainnet and every public testnet alike). */
export const TRON_PREFIX = 0x41;

const HEX_ADDRESS = /^41[0-9a-fA-F]{40}$/;

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The 21 bytes (0x41 + account) of a base58check `T…` address; undefined when it is not one. */
export function tronBytes(address: string): Uint8Array | undefined {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(address);
  } catch {
    return undefined;
  }
  return bytes.length === 21 && bytes[0] === TRON_PREFIX ? bytes : undefined;
}

/**
 * `41` + 20 bytes in hex (how the node spells addresses unless asked for `visible`) to the
 * base58check `T…` form deposit addresses and the catalog's token contracts are stored in.
 */
export function tronHexToBase58(hex: string): string {
  if (!HEX_ADDRESS.test(hex)) throw new Error(`not a TRON hex address (41 + 40 hex digits): ${hex.slice(0, 50)}`);
  return base58check.encode(hexToBytes(hex));
}

/** The `41…` hex form of a `T…` address; undefined when it is not a valid TRON address. */
export function tronBase58ToHex(address: string): string | undefined {
  const bytes = tronBytes(address);
  if (bytes === undefined) return undefined;
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export const isTronHexAddress = (s: string): boolean => HEX_ADDRESS.test(s);
