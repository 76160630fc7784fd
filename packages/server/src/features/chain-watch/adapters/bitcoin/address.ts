/** bech32/bech32m human-readable parts hostpay meets: mainnet, testnet/signet, regtest. */
const BECH32 = /^(bc|tb|bcrt)1/i;

/**
 * A Bitcoin address as stored and compared: bech32 (case-insensitive by its definition, written
 * in either case, QR codes use upper) in lower case; base58 unchanged, its case is its checksum.
 */
export function normalizeBitcoinAddress(address: string): string {
  return BECH32.test(address) ? address.toLowerCase() : address;
}
