import { HostpayError } from '../errors.js';
import type { MerchantServices } from './ports.js';
import type { Principal } from './principal.js';

/**
 * Whose data a request reads: the API key's merchant unless `merchantId` names a sub-merchant
 * that an operator granted to this (platform) key. The same answer whether or not the named
 * merchant exists, so the 403 reveals nothing about other merchants.
 */
export function selectMerchant(
  services: MerchantServices,
  principal: Principal,
  requested: string | undefined,
): string | Promise<string> {
  const { key } = principal;
  // The key's own merchant, the usual case, is known at once (no promise, no turn of the loop).
  if (requested === undefined || requested === key.merchantId) return key.merchantId;
  return grantedMerchant(services, principal, requested);
}

async function grantedMerchant(services: MerchantServices, { key }: Principal, requested: string): Promise<string> {
  if (await services.canActFor(key.id, key.merchantId, requested)) return requested;
  throw new HostpayError(
    'MERCHANT_FORBIDDEN',
    `this API key may not act for merchant \`${requested}\`: omit merchantId to use the key's own merchant, or ask your operator to grant that sub-merchant to this key (a suspended sub-merchant cannot be read)`,
  );
}
