import type { Decimal } from '@hostpay/protocol';
import type { SecretBox } from './crypto/secret-box.js';
import type { Store } from './store/store.js';
import { findApiKeyWithMerchant, hasGrant } from './features/keys/queries.js';
import { listNetworksOfAssets } from './features/catalog/queries.js';
import { listWalletDetails } from './features/wallets/queries.js';
import type { LRUCache } from 'lru-cache';
import { MISSING_KEY, type Caches } from './cache/caches.js';
import { successBody } from './http/success-body.js';
import { andThen } from './http/envelope.js';
import { feeService } from './features/fees/preview.js';
import type { ApiKeyAuth, MerchantServices } from './auth/ports.js';
import { walletView } from './features/wallets/view.js';
import { keyView } from './features/keys/service.js';
import { keyToucher } from './features/keys/touch.js';
import type { UsedSignatures } from './cluster/used-signatures.js';

/**
 * The merchant read path. Answers come from caches that writes invalidate (caches.ts), so a
 * steady stream of reads costs one Map lookup each and a posting is visible on the next read.
 */
export function createMerchantServices(
  store: Store,
  box: SecretBox,
  caches: Caches,
  tokenSigningKey: Buffer,
  /** Where used signatures are recorded (Redis or the store). */
  signatures: UsedSignatures,
  /** The clock rates' ages are judged by (tests move it). */
  now: () => number = Date.now,
): MerchantServices {
  const fees = feeService(store.db, caches);
  // A wallet list names its assets and chains; a posting or wallet change drops its merchant's.
  const walletBodies = caches.answers(['catalog'], { merchantKeyed: true });
  const feeBodies = caches.answers(['fees', 'catalog']);

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

  async function loadWalletBody(merchantId: string): Promise<string> {
    const rows = await listWalletDetails(store.db, merchantId);
    const networks = await listNetworksOfAssets(store.db, [...new Set(rows.map((r) => r.asset_id))]);
    return successBody(
      rows.map((r) =>
        walletView(
          r,
          networks.filter((n) => n.asset_id === r.asset_id),
        ),
      ),
    );
  }

  /**
   * Read-through with the generation guard: a result computed across a write is not kept. A hit
   * is returned as it is, not wrapped in a promise: the request path answers it in the same turn.
   */
  const cached = <V extends {}>(map: LRUCache<string, V>, key: string, load: () => Promise<V>) =>
    caches.through(map, key, load);
  const known = (key: ApiKeyAuth | typeof MISSING_KEY): ApiKeyAuth | undefined => ('missing' in key ? undefined : key);

  return {
    findApiKey(keyId) {
      const key = cached(caches.keys, keyId, async () => (await loadKey(keyId)) ?? MISSING_KEY);
      return key instanceof Promise ? key.then(known) : known(key);
    },
    async canActFor(keyId, keyMerchantId, merchantId) {
      return keyMerchantId === merchantId || hasGrant(store.db, keyId, merchantId);
    },
    walletListBody(merchantId) {
      return cached(walletBodies.map, merchantId, () => loadWalletBody(merchantId));
    },
    feePreviewBody(merchantId: string, amount: Decimal, currency: string, amountText = amount.toFixed()) {
      // A cached answer is only as good as its conversion rate's freshness, judged now (RATE_STALE).
      const nowMs = now();
      return andThen(fees.assertFresh(merchantId, currency, nowMs), () =>
        cached(feeBodies.map, `${merchantId}|${currency}|${amountText}`, async () =>
          successBody(await fees.preview(merchantId, amount, currency, nowMs)),
        ),
      );
    },
    checkReady: () => store.ping(),
    tokenSigningKey,
    touchKey: keyToucher(store.db),
    claimSignature: (keyId, signature, expiresAtMs) => signatures.claim(keyId, signature, expiresAtMs),
  };
}
