import { HostpayError } from '../errors.js';
import type { ApiKeyAuth, MerchantServices } from './ports.js';
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
  // The principal's own merchant, the usual case, is known at once (no promise, no turn of the loop).
  if (requested === undefined || requested === principal.merchantId) return principal.merchantId;
  // A dashboard user acts for its own merchant only: grants are given to platform keys.
  if (principal.via === 'session')
    throw merchantForbidden(
      'a dashboard session',
      requested,
      'omit merchantId: a session acts for its own merchant only',
    );
  return grantedMerchant(services, principal.key, requested);
}

async function grantedMerchant(services: MerchantServices, key: ApiKeyAuth, requested: string): Promise<string> {
  if (await services.canActFor(key.id, key.merchantId, requested)) return requested;
  throw merchantForbidden(
    'this API key',
    requested,
    "omit merchantId to use the key's own merchant, or ask your operator to grant that sub-merchant to this key (a suspended sub-merchant cannot be read)",
  );
}

function merchantForbidden(who: string, requested: string, how: string): HostpayError {
  return new HostpayError('MERCHANT_FORBIDDEN', `${who} may not act for merchant \`${requested}\`: ${how}`);
}
