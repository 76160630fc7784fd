import type { AdminRoutes } from './admin/scope.js';
import type { RouteContext, TypedApp } from './http/route-context.js';
import type { AdminServices } from './admin-services.js';
import { auditAdminRoutes } from './features/audit/routes.js';
import { checkoutMerchantRoutes } from './features/checkouts/merchant-routes.js';
import { checkoutAdminRoutes } from './features/checkouts/routes.js';
import { catalogAdminRoutes } from './features/catalog/routes.js';
import { eventMerchantRoutes } from './features/events/routes.js';
import { webhookAdminRoutes } from './features/webhooks/admin-routes.js';
import { evmWatchAdminRoutes } from './features/evm-watch/routes.js';
import { statsAdminRoutes } from './features/stats/routes.js';
import { eventRedeliverRoutes, webhookMerchantRoutes } from './features/webhooks/routes.js';
import { feeAdminRoutes } from './features/fees/routes.js';
import { rateAdminRoutes } from './features/fees/rate-routes.js';
import { grantAdminRoutes } from './features/keys/grant-routes.js';
import { keyAdminRoutes } from './features/keys/routes.js';
import { postingAdminRoutes } from './features/ledger/routes.js';
import { feeFastRoutes, feeMerchantRoutes } from './features/fees/merchant-routes.js';
import { merchantAdminRoutes } from './features/merchants/routes.js';
import { payRoutes } from './features/pay/routes.js';
import { publicRoutes } from './features/system/routes.js';
import { tokenRoutes } from './features/tokens/routes.js';
import { walletFastRoutes, walletMerchantRoutes } from './features/wallets/merchant-routes.js';
import type { FastRoute } from './http/fast-path.js';
import type { MerchantServices } from './auth/ports.js';
import { walletAdminRoutes } from './features/wallets/routes.js';

/**
 * Every feature's HTTP routes, registered by buildApp. A new feature is a folder beside these and
 * one line here: its public/merchant routes in HTTP_FEATURES, its operator routes in ADMIN_FEATURES.
 */
export const HTTP_FEATURES: readonly ((app: TypedApp, ctx: RouteContext) => Promise<void>)[] = [
  publicRoutes, // system: time, health, readiness, metrics
  tokenRoutes, // tokens: POST /api/v1/auth/token
  walletMerchantRoutes, // wallets: the merchant's wallet list
  feeMerchantRoutes, // fees: the merchant's fee preview
  checkoutMerchantRoutes, // checkouts: create, read, cancel, simulate a payment
  payRoutes, // pay: the hosted payment page, its status feed, QR codes and files
  eventMerchantRoutes, // events: list, get, stream
  eventRedeliverRoutes, // webhooks: send one event again
  webhookMerchantRoutes, // webhooks: endpoints, secrets, tests, delivery log, replay
];

/**
 * Cached merchant reads also answered before Fastify when a request repeats accepted credentials
 * (http/fast-path.ts); each stands for a route registered above, which answers everything else.
 */
export const FAST_ROUTES: readonly ((services: MerchantServices) => FastRoute[])[] = [walletFastRoutes, feeFastRoutes];

export const ADMIN_FEATURES: readonly AdminRoutes<AdminServices>[] = [
  merchantAdminRoutes,
  keyAdminRoutes,
  grantAdminRoutes,
  walletAdminRoutes,
  postingAdminRoutes,
  feeAdminRoutes,
  rateAdminRoutes,
  auditAdminRoutes,
  checkoutAdminRoutes,
  catalogAdminRoutes, // catalog: assets, chains (and their xpubs), networks, deposit addresses
  webhookAdminRoutes,
  evmWatchAdminRoutes, // evm-watch: which EVM chains hostpay watches by itself
  statsAdminRoutes, // stats: the console overview's figures
];
