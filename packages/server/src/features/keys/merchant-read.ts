import type { ApiKeyAuth, MerchantServices } from '../../auth/ports.js';
import { MISSING_KEY, type Caches } from '../../cache/caches.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Store } from '../../store/store.js';
import { findApiKeyWithMerchant, hasGrant } from './queries.js';
import { keyView } from './service.js';
import { keyToucher } from './touch.js';

/**
 * The keys' part of the merchant read path: the key lookup authentication makes on every request,
 * cached until the key or its merchant changes, so a steady stream of requests costs one Map
 * lookup each.
 */
export function keyReads({
  store,
  box,
  caches,
}: {
  store: Store;
  box: SecretBox;
  caches: Caches;
}): Pick<MerchantServices, 'findApiKey' | 'canActFor' | 'touchKey'> {
  async function loadKey(keyId: string): Promise<ApiKeyAuth | null> {
    const row = await findApiKeyWithMerchant(store.db, keyId);
    if (!row) return null;
    // The row is read as operators see it (one parser for scopes and allow-lists), then only
    // what authentication needs is kept in the cache, with the secret opened.
    const { id, merchantId, scopes, status, expiresAt, ipAllowList, rateLimitPerMinute, requireSignatureV2 } =
      keyView(row);
    return {
      id,
      merchantId,
      secret: box.open(row.secret_sealed, row.id),
      scopes,
      status,
      expiresAt,
      ipAllowList,
      rateLimitPerMinute,
      requireSignatureV2,
      merchantStatus: row.merchant_status,
    };
  }
  const known = (key: ApiKeyAuth | typeof MISSING_KEY): ApiKeyAuth | undefined => ('missing' in key ? undefined : key);

  return {
    findApiKey(keyId) {
      // A hit is returned as it is, not wrapped in a promise: the request path answers it in the same turn.
      const key = caches.through(caches.keys, keyId, async () => (await loadKey(keyId)) ?? MISSING_KEY);
      return key instanceof Promise ? key.then(known) : known(key);
    },
    async canActFor(keyId, keyMerchantId, merchantId) {
      return keyMerchantId === merchantId || hasGrant(store.db, keyId, merchantId);
    },
    touchKey: keyToucher(store.db),
  };
}
