import { defineFeature } from '../../feature-kit/feature.js';
import { walletFastRoutes, walletMerchantRoutes } from './merchant-routes.js';
import { walletReads } from './merchant-read.js';
import { walletAdminRoutes } from './routes.js';
import { walletAdmin } from './service.js';
import { walletsMigrations } from './tables.js';

/** Wallets: the merchant's wallet list (also on the fast path) and the operators' wallet operations. */
export const walletsFeature = defineFeature({
  name: 'wallets',
  migrations: walletsMigrations,
  needs: ['store', 'box', 'caches'],
  provides: [],
  admin: walletAdmin,
  merchantRoutes: [walletMerchantRoutes],
  fastRoutes: [walletFastRoutes],
  merchantServices: walletReads,
  adminRoutes: [walletAdminRoutes],
});
