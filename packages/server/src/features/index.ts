import type { AdminOf, AnyFeature } from '../feature-kit/feature.js';
import { addressesFeature } from './addresses/feature.js';
export type * from './admin-views.js';
import { auditFeature } from './audit/feature.js';
import { catalogFeature } from './catalog/feature.js';
import { checkoutsFeature } from './checkouts/feature.js';
import { consoleFeature } from './console/feature.js';
import { dashboardFeature } from './dashboard/feature.js';
import { eventsFeature } from './events/feature.js';
import { chainWatchFeature } from './chain-watch/feature.js';
import { feesFeature } from './fees/feature.js';
import { invoicesFeature } from './invoices/feature.js';
import { hotWalletFeature } from './hot-wallet/feature.js';
import { keysFeature } from './keys/feature.js';
import { ledgerFeature } from './ledger/feature.js';
import { mailFeature } from './mail/feature.js';
import { masterKeyFeature } from './master-key/feature.js';
import { merchantsFeature } from './merchants/feature.js';
import { merchantUsersFeature } from './merchant-users/feature.js';
import { payFeature } from './pay/feature.js';
import { paymentLinksFeature } from './payment-links/feature.js';
import { ratesFeature } from './rates/feature.js';
import { payoutsFeature } from './payouts/feature.js';
import { refundsFeature } from './refunds/feature.js';
import { reportsFeature } from './reports/feature.js';
import { selfServiceFeature } from './self-service/feature.js';
import { statsFeature } from './stats/feature.js';
import { systemFeature } from './system/feature.js';
import { tokensFeature } from './tokens/feature.js';
import { walletsFeature } from './wallets/feature.js';
import { webhooksFeature } from './webhooks/feature.js';

/**
 * Every feature the server runs: a new feature is its folder and one line here. Services are made
 * in an order where needs come first (feature-kit/registry.ts); routes are registered in this
 * order, which is also the order of the OpenAPI document.
 */
const FEATURES = [
  systemFeature,
  tokensFeature,
  merchantsFeature,
  keysFeature,
  walletsFeature,
  ledgerFeature,
  feesFeature,
  ratesFeature,
  auditFeature,
  addressesFeature,
  checkoutsFeature,
  payFeature,
  payoutsFeature,
  refundsFeature,
  paymentLinksFeature,
  invoicesFeature,
  reportsFeature,
  eventsFeature,
  catalogFeature,
  webhooksFeature,
  mailFeature,
  selfServiceFeature,
  chainWatchFeature,
  hotWalletFeature,
  statsFeature,
  merchantUsersFeature,
  consoleFeature,
  dashboardFeature,
  masterKeyFeature,
] as const;

export const REGISTERED_FEATURES: readonly AnyFeature[] = FEATURES;

/** Every feature's operator operations, as the one object the admin API and the CLI call. */
export type FeatureAdmin = AdminOf<(typeof FEATURES)[number]>;
