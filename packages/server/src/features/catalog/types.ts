import type { Page } from '../../admin/pagination.js';
import type { CatalogAdmin } from './service.js';

// The shapes of the catalog's answers, for typed clients of the admin API (the CLI).
export type { AssetRequest, AssetChange, ChainRequest, ChainChange, NetworkRequest, NetworkChange } from './service.js';
export type { AddressFilter } from './keys.js';
export type { AssetView, ChainView, CatalogNetworkView } from './views.js';
export type XpubView = Awaited<ReturnType<CatalogAdmin['getChainXpub']>>;
export type DepositAddressView = Awaited<ReturnType<CatalogAdmin['listAddresses']>> extends Page<infer T> ? T : never;
