/**
 * What a payer's wallet app understands, per chain family: BIP-21 for Bitcoin (amount in BTC),
 * EIP-681 for EVM chains (native value in wei, or an ERC-20 `transfer` with the amount in the
 * token's base units), and the plain address for TRON, whose wallets agree on no URI scheme.
 * Amounts are handled as decimal text, never as floating point.
 */
export interface UriInput {
  family: string;
  /** The chain's catalog network: 'mainnet' | 'testnet' | 'regtest'. */
  networkType: string;
  chain: string;
  address: string;
  /** Null for the chain's native coin. */
  tokenContract: string | null;
  /** Fractional digits of the asset. */
  decimals: number;
  /** Exact decimal text of what is still to pay. */
  amount: string;
}

/**
 * EIP-155 chain ids the catalog does not hold yet: only where the chain symbol and its network
 * leave no doubt. Elsewhere the URI names no chain, and the page names the network in words.
 */
const EVM_CHAIN_IDS: Record<string, number> = { 'ETH/mainnet': 1 };

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

/**
 * The "Open in a wallet app" link: a payment URI of a scheme wallets register (bitcoin:,
 * ethereum:), or null where the chain has none (TRON). Never the bare address: as an href it
 * would resolve as a relative URL of the page itself.
 */
export function walletUri(o: UriInput): string | null {
  return o.family === 'btc' || o.family === 'evm' ? paymentUri(o) : null;
}

/** What the QR code holds: the payment URI, or the plain address where the chain has no scheme. */
export function paymentUri(o: UriInput): string {
  if (o.family === 'btc') return `bitcoin:${o.address}?amount=${ceilDecimal(o.amount, Math.min(o.decimals, 8))}`;
  if (o.family === 'evm') {
    const id = EVM_CHAIN_IDS[`${o.chain}/${o.networkType}`];
    const at = id === undefined ? '' : `@${id}`;
    const units = baseUnits(o.amount, o.decimals);
    return o.tokenContract === null
      ? `ethereum:${o.address}${at}?value=${units}`
      : `ethereum:${o.tokenContract}${at}/transfer?address=${o.address}&uint256=${units}`;
  }
  return o.address;
}
