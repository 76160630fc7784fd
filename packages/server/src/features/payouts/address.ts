import { bech32, bech32m } from '@scure/base';
import { HostpayError } from '../../errors.js';
import { base58check, encoder } from '../addresses/encode.js';

/**
 * Payout destinations are checked per chain before anything is stored or frozen (spec/payouts.md,
 * "Destination"): BTC segwit (bech32 v0, bech32m v1+) with the chain network's prefix, or base58
 * P2PKH/P2SH with its version byte; EVM 20-byte hex, a mixed-case spelling must pass EIP-55;
 * TRON base58check of 0x41 + 20 bytes. The checksums are the libraries' (@scure/base, the
 * addresses feature's encoder over @noble/hashes). Returns the address as stored: EVM in its
 * EIP-55 spelling, BTC bech32 in lower case, the rest as given.
 */
export interface ChainForAddress {
  symbol: string;
  family: string;
  network_type: string;
}

const HRP: Record<string, string> = { mainnet: 'bc', testnet: 'tb', regtest: 'bcrt' };
/** Base58 version bytes: [P2PKH, P2SH] per network type. */
const BASE58_VERSIONS: Record<string, readonly number[]> = {
  mainnet: [0x00, 0x05],
  testnet: [0x6f, 0xc4],
  regtest: [0x6f, 0xc4],
};

function refuse(chain: ChainForAddress, address: string, why: string): never {
  throw new HostpayError('INVALID_ADDRESS', `${JSON.stringify(address)} is not a ${chain.symbol} address: ${why}`, {
    chain: chain.symbol,
  });
}

/**
 * Addresses nobody holds a key for, refused as payout, refund and address-book destinations
 * (400 INVALID_ADDRESS, `details.reason` `burn_address`): money sent there is gone for good.
 * EVM and TRON share their 20 bytes: the zero address and everything up to 0x…ffff (the zero
 * address, precompiles, 0x…dEaD; no key can be found for 18 leading zero bytes), 0xdEaD followed
 * by zeros, and the well-known 0xdead…42069 burn. Bitcoin has no canonical burn address: a hash
 * or witness program of only zero bytes (1111111111111111111114oLvT2 and its kin) is refused.
 */
const EVM_BURNS = new Set(['dead000000000000000000000000000000000000', 'dead000000000000000042069420694206942069']);

function isBurn20(bytes: Uint8Array): boolean {
  if (bytes.length !== 20) return false;
  if (bytes.subarray(0, 18).every((b) => b === 0)) return true;
  return EVM_BURNS.has(Buffer.from(bytes).toString('hex'));
}

function refuseBurn(chain: ChainForAddress, address: string, what: string): never {
  throw new HostpayError(
    'INVALID_ADDRESS',
    `${JSON.stringify(address)} is ${what} on ${chain.symbol}: nobody holds its key, so money sent there can never be spent; give an address you control`,
    { chain: chain.symbol, reason: 'burn_address' },
  );
}

function btc(chain: ChainForAddress, address: string): string {
  const hrp = HRP[chain.network_type] ?? 'bc';
  const lower = address.toLowerCase();
  if (lower.startsWith(`${hrp}1`)) {
    if (address !== lower && address !== address.toUpperCase()) refuse(chain, address, 'mixed case');
    const v0 = bech32.decodeUnsafe(lower, 90);
    const v1 = v0 === undefined ? bech32m.decodeUnsafe(lower, 90) : undefined;
    const decoded = v0 ?? v1;
    if (decoded === undefined || decoded.prefix !== hrp) refuse(chain, address, 'bad bech32/bech32m checksum');
    const [version, ...rest] = decoded.words;
    if (version === undefined || version > 16) refuse(chain, address, 'no witness version');
    let program: Uint8Array;
    try {
      program = bech32.fromWords(rest);
    } catch {
      refuse(chain, address, 'bad witness program');
    }
    if (version === 0 && (v0 === undefined || (program.length !== 20 && program.length !== 32)))
      refuse(chain, address, 'a version 0 witness program is 20 or 32 bytes, in bech32');
    if (version > 0 && (v1 === undefined || program.length < 2 || program.length > 40))
      refuse(chain, address, 'a version 1+ witness program is 2 to 40 bytes, in bech32m');
    if (program.every((b) => b === 0)) refuseBurn(chain, address, 'a witness program of zero bytes (a burn address)');
    return lower;
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    refuse(chain, address, `neither ${hrp}1… (segwit) nor a base58check P2PKH/P2SH address`);
  }
  const versions = BASE58_VERSIONS[chain.network_type] ?? BASE58_VERSIONS.mainnet!;
  if (payload.length !== 21 || !versions.includes(payload[0]!))
    refuse(chain, address, `not a P2PKH/P2SH address of ${chain.network_type}`);
  if (payload.subarray(1).every((b) => b === 0)) refuseBurn(chain, address, 'a hash of zero bytes (a burn address)');
  return address;
}

function evm(chain: ChainForAddress, address: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) refuse(chain, address, '0x and 40 hex digits expected');
  const hex = address.slice(2);
  const checksummed = encoder.eip55(hex.toLowerCase());
  const oneCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!oneCase && checksummed !== address) refuse(chain, address, 'mixed case that fails the EIP-55 checksum');
  if (isBurn20(Buffer.from(hex, 'hex'))) refuseBurn(chain, address, 'the zero address or a known burn address');
  return checksummed;
}

function tron(chain: ChainForAddress, address: string): string {
  if (!address.startsWith('T')) refuse(chain, address, 'TRON addresses start with T');
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    refuse(chain, address, 'bad base58check checksum');
  }
  if (payload.length !== 21 || payload[0] !== 0x41) refuse(chain, address, 'not 0x41 followed by 20 bytes');
  if (isBurn20(payload.subarray(1)))
    refuseBurn(chain, address, 'the black-hole (zero) address or a known burn address');
  return address;
}

/** The address as stored, or 400 INVALID_ADDRESS saying what is wrong. */
export function checkPayoutAddress(chain: ChainForAddress, address: string): string {
  const trimmed = address.trim();
  if (trimmed.length === 0 || trimmed.length > 128) refuse(chain, address, 'empty or too long');
  switch (chain.family) {
    case 'btc':
      return btc(chain, trimmed);
    case 'evm':
      return evm(chain, trimmed);
    case 'tron':
      return tron(chain, trimmed);
    default:
      return refuse(chain, address, `chain family ${chain.family} has no payout address rule`);
  }
}
