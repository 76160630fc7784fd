import type { MerchantServices } from '../../auth/ports.js';
import type { Caches } from '../../cache/caches.js';
import { successBody } from '../../http/success-body.js';
import type { Store } from '../../store/store.js';
import { listNetworksOfAssets } from '../catalog/queries.js';
import { listWalletDetails } from './queries.js';
import { walletView } from './view.js';

/**
 * The wallets' part of the merchant read path: the wallet list as finished JSON text, cached
 * until a write drops it (caches.ts), so a steady stream of reads costs one Map lookup each and a
 * posting is visible on the next read.
 */
export function walletReads({
  store,
  caches,
}: {
  store: Store;
  caches: Caches;
}): Pick<MerchantServices, 'walletListBody'> {
  // A wallet list names its assets and chains; a posting or wallet change drops its merchant's.
  const bodies = caches.answers(['catalog'], { merchantKeyed: true });

  async function load(merchantId: string): Promise<string> {
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

  return {
    walletListBody: (merchantId) => caches.through(bodies.map, merchantId, () => load(merchantId)),
  };
}
