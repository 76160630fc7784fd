import { HostpayError } from '../../errors.js';
import { findFamily } from '../../chain-families/index.js';

/**
 * Payout destinations are checked per chain before anything is stored or frozen (spec/payouts.md,
 * "Destination"), by the rule of the chain's family (chain-families/: BTC segwit or base58 with
 * the network's prefix, EVM 20-byte hex with EIP-55, TRON base58check of 0x41 + 20 bytes).
 * Addresses nobody holds a key for are refused as payout, refund and address-book destinations
 * (400 INVALID_ADDRESS, `details.reason` `burn_address`): money sent there is gone for good.
 * Returns the address as stored: EVM in its EIP-55 spelling, BTC bech32 in lower case, the rest as given.
 */
export interface ChainForAddress {
  symbol: string;
  family: string;
  network_type: string;
}

function refuse(chain: ChainForAddress, address: string, why: string): never {
  throw new HostpayError('INVALID_ADDRESS', `${JSON.stringify(address)} is not a ${chain.symbol} address: ${why}`, {
    chain: chain.symbol,
  });
}

/** `what`: the family's word for the burn address (the zero address, a hash of zero bytes). */
function refuseBurn(chain: ChainForAddress, address: string, what: string): never {
  throw new HostpayError(
    'INVALID_ADDRESS',
    `${JSON.stringify(address)} is ${what} on ${chain.symbol}: nobody holds its key, so money sent there can never be spent; give an address you control`,
    { chain: chain.symbol, reason: 'burn_address' },
  );
}

/** The address as stored, or 400 INVALID_ADDRESS saying what is wrong. */
export function checkPayoutAddress(chain: ChainForAddress, address: string): string {
  const trimmed = address.trim();
  if (trimmed.length === 0 || trimmed.length > 128) refuse(chain, address, 'empty or too long');
  const family = findFamily(chain.family);
  if (family === undefined) return refuse(chain, address, `chain family ${chain.family} has no payout address rule`);
  const verdict = family.checkAddress(trimmed, chain.network_type);
  if ('address' in verdict) return verdict.address;
  return verdict.burn === true ? refuseBurn(chain, trimmed, verdict.why) : refuse(chain, trimmed, verdict.why);
}
