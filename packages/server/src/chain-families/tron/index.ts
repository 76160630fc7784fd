import { base58check, isBurn20 } from '../encoding.js';
import type { AddressVerdict, ChainFamily, EncodeLib } from '../family.js';
import { tronBytes } from './address.js';

/**
 * TRON: BIP-44 account keys (m/44'/195'/0'), base58check `T…` addresses (0x41 + the EVM-style
 * 20-byte account), TRC-20 token contracts; no payment URI scheme wallets agree on, so the QR code
 * holds the plain address. Watched through a java-tron node's HTTP API.
 */

const B58 = '1-9A-HJ-NP-Za-km-z';

/** 0x41 + the last 20 bytes of keccak-256 of the point, base58check. */
function tronAddress(lib: EncodeLib, _prefix: string, uncompressed: Uint8Array): string {
  return lib.base58check.encode(Uint8Array.of(0x41, ...lib.keccak_256(uncompressed.subarray(1)).subarray(12)));
}

function checkAddress(address: string): AddressVerdict {
  if (!address.startsWith('T')) return { why: 'TRON addresses start with T' };
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return { why: 'bad base58check checksum' };
  }
  if (payload.length !== 21 || payload[0] !== 0x41) return { why: 'not 0x41 followed by 20 bytes' };
  if (isBurn20(payload.subarray(1)))
    return { why: 'the black-hole (zero) address or a known burn address', burn: true };
  return { address };
}

export const tron: ChainFamily = {
  name: 'tron',
  title: 'TRON',
  defaultConfirmations: 19,
  nativeDecimals: 6,
  purpose: 44,
  refuseKeyForm: (form) =>
    form.testnet || form.segwit ? `${form.name} is a Bitcoin form: TRON take the xpub of m/44'/195'/0'` : undefined,
  addressPrefix: () => '',
  encodeAddress: tronAddress,
  checkAddress,
  // Base58 is case-sensitive: matched as written.
  matchSpelling: (address) => address,
  addressField: () => ({
    starts: ['T'],
    length: 34,
    pattern: `T[${B58}]{33}`,
  }),
  tokens: {
    described: 'base58 T… address',
    pattern: new RegExp(`^T[${B58}]{33}$`),
    check: (text) =>
      tronBytes(text.trim()) === undefined
        ? {
            why: `tokenContract on TRON must be a base58check address starting with T (34 characters), got ${JSON.stringify(text)}`,
          }
        : { contract: text.trim() },
    watchSpelling: (contract) => contract,
  },
  paymentUri: (o) => o.address,
  walletScheme: false,
  adapterKinds: ['tron-http'],
  hotWallet: false,
};
