import { findFamily } from '../../chain-families/index.js';
import type { UriInput } from '../../chain-families/family.js';

/**
 * What a payer's wallet app understands is the chain family's (chain-families/): BIP-21 for
 * Bitcoin, EIP-681 for EVM chains, the plain address for TRON. Amounts are decimal text, never
 * floating point.
 */
export type { UriInput } from '../../chain-families/family.js';
export { baseUnits, ceilDecimal } from '../../chain-families/encoding.js';

/**
 * The "Open in a wallet app" link: a payment URI of a scheme wallets register (bitcoin:,
 * ethereum:), or null where the chain has none (TRON). Never the bare address: as an href it
 * would resolve as a relative URL of the page itself.
 */
export function walletUri(o: UriInput): string | null {
  return findFamily(o.family)?.walletScheme === true ? paymentUri(o) : null;
}

/** What the QR code holds: the payment URI, or the plain address where the chain has no scheme. */
export function paymentUri(o: UriInput): string {
  return findFamily(o.family)?.paymentUri(o) ?? o.address;
}
