import { baseUnits, eip55, isBurn20 } from '../encoding.js';
import type { AddressVerdict, ChainFamily, EncodeLib } from '../family.js';

/**
 * EVM chains (Ethereum, BNB Smart Chain, Polygon, …): BIP-44 account keys (m/44'/60'/0'),
 * EIP-55 addresses, ERC-20 token contracts, EIP-681 payment URIs; watched over JSON-RPC and
 * sent on by the hot wallet.
 */

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The last 20 bytes of keccak-256 of the point, in EIP-55 spelling. */
function evmAddress(lib: EncodeLib, _prefix: string, uncompressed: Uint8Array): string {
  return lib.eip55(lib.hexOf(lib.keccak_256(uncompressed.subarray(1)).subarray(12)));
}

/** 20-byte hex; a mixed-case spelling must pass EIP-55. Stored in its EIP-55 spelling. */
function checkAddress(address: string): AddressVerdict {
  if (!HEX_ADDRESS.test(address)) return { why: '0x and 40 hex digits expected' };
  const hex = address.slice(2);
  const checksummed = eip55(hex.toLowerCase());
  const oneCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!oneCase && checksummed !== address) return { why: 'mixed case that fails the EIP-55 checksum' };
  if (isBurn20(Buffer.from(hex, 'hex'))) return { why: 'the zero address or a known burn address', burn: true };
  return { address: checksummed };
}

/**
 * EIP-155 chain ids the catalog does not hold yet: only where the chain symbol and its network
 * leave no doubt. Elsewhere the URI names no chain, and the page names the network in words.
 */
const EVM_CHAIN_IDS: Record<string, number> = { 'ETH/mainnet': 1 };

export const evm: ChainFamily = {
  name: 'evm',
  title: 'EVM',
  defaultConfirmations: 12,
  nativeDecimals: 18,
  purpose: 44,
  refuseKeyForm: (form) =>
    form.testnet || form.segwit
      ? `${form.name} is a Bitcoin form: EVM chains take the xpub of m/44'/60'/0'`
      : undefined,
  addressPrefix: () => '',
  encodeAddress: evmAddress,
  checkAddress,
  // EIP-55 is a checksum, not identity: a report in any case matches the stored spelling.
  matchSpelling: (address) => (HEX_ADDRESS.test(address) ? eip55(address.slice(2).toLowerCase()) : address),
  addressField: () => ({
    starts: ['0x'],
    hexDigits: 40,
    pattern: '0x[0-9a-fA-F]{40}',
  }),
  tokens: {
    described: '0x address (40 hex digits)',
    pattern: HEX_ADDRESS,
    check(text) {
      const value = text.trim();
      if (!HEX_ADDRESS.test(value))
        return {
          why: `tokenContract on an EVM chain must be 0x followed by 40 hex digits, got ${JSON.stringify(text)}`,
        };
      const hex = value.slice(2);
      const checksummed = eip55(hex.toLowerCase());
      const mixedCase = hex !== hex.toLowerCase() && hex !== hex.toUpperCase();
      if (mixedCase && checksummed !== value)
        return {
          why: `tokenContract ${value} fails its EIP-55 checksum (a letter's case is wrong: mistyped?); expected ${checksummed}`,
        };
      return { contract: checksummed };
    },
    watchSpelling: (contract) => contract.toLowerCase(),
  },
  // EIP-681: native value in wei, or an ERC-20 `transfer` with the amount in the token's base units.
  paymentUri(o) {
    const id = EVM_CHAIN_IDS[`${o.chain}/${o.networkType}`];
    const at = id === undefined ? '' : `@${id}`;
    const units = baseUnits(o.amount, o.decimals);
    return o.tokenContract === null
      ? `ethereum:${o.address}${at}?value=${units}`
      : `ethereum:${o.tokenContract}${at}/transfer?address=${o.address}&uint256=${units}`;
  },
  walletScheme: true,
  adapterKinds: ['evm-rpc'],
  hotWallet: true,
};
