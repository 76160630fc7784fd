import { bech32, bech32m } from '@scure/base';
import { base58check, ceilDecimal } from '../encoding.js';
import type { AddressVerdict, ChainFamily, EncodeLib } from '../family.js';

/**
 * Bitcoin: BIP-84 account keys (xpub/zpub, tpub/vpub on test networks), P2WPKH deposit
 * addresses, BIP-21 payment URIs; watched through Esplora or Bitcoin Core.
 */

const HRP: Record<string, string> = { mainnet: 'bc', testnet: 'tb', regtest: 'bcrt' };
/** Base58 version bytes: [P2PKH, P2SH] per network type. */
const BASE58_VERSIONS: Record<string, readonly number[]> = {
  mainnet: [0x00, 0x05],
  testnet: [0x6f, 0xc4],
  regtest: [0x6f, 0xc4],
};
const B58 = '1-9A-HJ-NP-Za-km-z';
const BECH32 = '02-9ac-hj-np-zAC-HJ-NP-Z';

/** P2WPKH: bech32 witness version 0 of HASH160 of the compressed key. */
function btcAddress(lib: EncodeLib, prefix: string, uncompressed: Uint8Array): string {
  return lib.bech32.encode(prefix, [0, ...lib.bech32.toWords(lib.ripemd160(lib.sha256(lib.compress(uncompressed))))]);
}

/** bech32/bech32m human-readable parts hostpay meets: mainnet, testnet/signet, regtest. */
const ANY_BECH32 = /^(bc|tb|bcrt)1/i;

/**
 * A Bitcoin address as the watcher compares it: bech32 (case-insensitive by its definition,
 * written in either case, QR codes use upper) in lower case; base58 unchanged, its case is its checksum.
 */
export function normalizeBitcoinAddress(address: string): string {
  return ANY_BECH32.test(address) ? address.toLowerCase() : address;
}

/**
 * Segwit (bech32 v0, bech32m v1+) with the network's prefix, or base58 P2PKH/P2SH with its
 * version byte. Bitcoin has no canonical burn address: a hash or witness program of only zero
 * bytes (1111111111111111111114oLvT2 and its kin) is refused.
 */
function checkAddress(address: string, network: string): AddressVerdict {
  const hrp = HRP[network] ?? 'bc';
  const lower = address.toLowerCase();
  if (lower.startsWith(`${hrp}1`)) {
    if (address !== lower && address !== address.toUpperCase()) return { why: 'mixed case' };
    const v0 = bech32.decodeUnsafe(lower, 90);
    const v1 = v0 === undefined ? bech32m.decodeUnsafe(lower, 90) : undefined;
    const decoded = v0 ?? v1;
    if (decoded === undefined || decoded.prefix !== hrp) return { why: 'bad bech32/bech32m checksum' };
    const [version, ...rest] = decoded.words;
    if (version === undefined || version > 16) return { why: 'no witness version' };
    let program: Uint8Array;
    try {
      program = bech32.fromWords(rest);
    } catch {
      return { why: 'bad witness program' };
    }
    if (version === 0 && (v0 === undefined || (program.length !== 20 && program.length !== 32)))
      return { why: 'a version 0 witness program is 20 or 32 bytes, in bech32' };
    if (version > 0 && (v1 === undefined || program.length < 2 || program.length > 40))
      return { why: 'a version 1+ witness program is 2 to 40 bytes, in bech32m' };
    if (program.every((b) => b === 0)) return { why: 'a witness program of zero bytes (a burn address)', burn: true };
    return { address: lower };
  }
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return { why: `neither ${hrp}1… (segwit) nor a base58check P2PKH/P2SH address` };
  }
  const versions = BASE58_VERSIONS[network] ?? BASE58_VERSIONS.mainnet!;
  if (payload.length !== 21 || !versions.includes(payload[0]!))
    return { why: `not a P2PKH/P2SH address of ${network}` };
  if (payload.subarray(1).every((b) => b === 0)) return { why: 'a hash of zero bytes (a burn address)', burn: true };
  return { address };
}

export const btc: ChainFamily = {
  name: 'btc',
  title: 'Bitcoin',
  defaultConfirmations: 2,
  nativeDecimals: 8,
  purpose: 84,
  refuseKeyForm(form, network) {
    const testnet = network !== 'mainnet';
    if (form.testnet === testnet) return undefined;
    return `a ${form.name} is a ${form.testnet ? 'testnet' : 'mainnet'} key and this chain is ${network}: use ${testnet ? 'tpub or vpub' : 'xpub or zpub'}`;
  },
  addressPrefix: (network) => HRP[network] ?? 'bc',
  encodeAddress: btcAddress,
  checkAddress,
  // Deposit addresses are stored as derived (lower-case bech32); a report is matched as written.
  matchSpelling: (address) => address,
  addressField(network) {
    const [hrp, legacy] =
      network === 'mainnet' ? ['bc1', '13'] : network === 'regtest' ? ['bcrt1', 'mn2'] : ['tb1', 'mn2'];
    const starts = network === 'mainnet' ? ['bc1', '1', '3'] : [hrp, 'm', 'n', '2'];
    return {
      starts,
      pattern: `(${hrp}|${hrp.toUpperCase()})[${BECH32}]{8,87}|[${legacy}][${B58}]{25,34}`,
    };
  },
  tokens: null,
  // BIP-21: the amount in BTC, at most 8 decimals, rounded up.
  paymentUri: (o) => `bitcoin:${o.address}?amount=${ceilDecimal(o.amount, Math.min(o.decimals, 8))}`,
  walletScheme: true,
  adapterKinds: ['esplora', 'bitcoin-core'],
  hotWallet: false,
};
