import type {
  AddressFilter,
  AssetChange,
  AssetRequest,
  AssetView,
  CatalogNetworkView,
  ChainChange,
  ChainRequest,
  ChainView,
  DepositAddressView,
  HotWalletView,
  NetworkChange,
  NetworkRequest,
  Page,
  PageRequest,
  WatchRequest,
  WatchView,
  XpubView,
} from '@hostpay/server';
import { seg, type AdminCall, type Write } from './http.js';

// Types only (erased at build): the server's catalog views, one definition for both sides.
export type { AssetChange, AssetRequest, ChainChange, ChainRequest, NetworkChange, NetworkRequest };
export type Asset = AssetView;
export type Chain = ChainView;
export type CatalogNetwork = CatalogNetworkView;
export type ChainXpub = XpubView;
export type DepositAddress = DepositAddressView;
export type ChainWatch = WatchView;
export type { WatchRequest };
export type HotWallet = HotWalletView;
/** What setting or removing a hot wallet answers: never the key. */
export interface HotWalletAddress {
  chain: string;
  address: string;
}

/** The catalog operations of the admin API: assets, chains and their keys, networks, deposit addresses. */
export interface CatalogBackend {
  readonly assets: {
    list(): Promise<Asset[]>;
    create(req: AssetRequest, w?: Write): Promise<Asset>;
    update(symbol: string, change: AssetChange, w?: Write): Promise<Asset>;
  };
  readonly chains: {
    list(): Promise<Chain[]>;
    create(req: ChainRequest, w?: Write): Promise<Chain>;
    update(symbol: string, change: ChainChange, w?: Write): Promise<Chain>;
    /** The key in full (the chain views show it in part). */
    xpub(symbol: string): Promise<ChainXpub>;
    setXpub(symbol: string, xpub: string, w?: Write): Promise<ChainXpub>;
    /** The chain watcher's settings of a chain (features/chain-watch): create or change. */
    watch(symbol: string, req: WatchRequest, w?: Write): Promise<ChainWatch>;
    getWatch(symbol: string): Promise<ChainWatch>;
    watches(): Promise<ChainWatch[]>;
    unwatch(symbol: string, w?: Write): Promise<ChainWatch>;
    /** The EVM hot wallet of a chain (features/hot-wallet): a key given, or generated without one. */
    setHotWallet(symbol: string, privateKey: string | undefined, w?: Write): Promise<HotWalletAddress>;
    getHotWallet(symbol: string): Promise<HotWallet>;
    removeHotWallet(symbol: string, w?: Write): Promise<HotWalletAddress>;
  };
  readonly networks: {
    list(q: { asset?: string | undefined; chain?: string | undefined }): Promise<CatalogNetwork[]>;
    create(req: NetworkRequest, w?: Write): Promise<CatalogNetwork>;
    update(id: string, change: NetworkChange, w?: Write): Promise<CatalogNetwork>;
  };
  readonly addresses: {
    list(q: AddressFilter & PageRequest): Promise<Page<DepositAddress>>;
  };
}

/** Undefined fields dropped: a PATCH names only what changes. */
const defined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

export function catalogBackend(call: AdminCall): CatalogBackend {
  return {
    assets: {
      list: () => call('GET', '/assets'),
      create: (req, w) => call('POST', '/assets', { body: defined(req), write: w ?? {} }),
      update: (symbol, change, w) => call('PATCH', `/assets/${seg(symbol)}`, { body: defined(change), write: w ?? {} }),
    },
    chains: {
      list: () => call('GET', '/chains'),
      create: (req, w) => call('POST', '/chains', { body: defined(req), write: w ?? {} }),
      update: (symbol, change, w) => call('PATCH', `/chains/${seg(symbol)}`, { body: defined(change), write: w ?? {} }),
      xpub: (symbol) => call('GET', `/chains/${seg(symbol)}/xpub`),
      setXpub: (symbol, xpub, w) => call('PUT', `/chains/${seg(symbol)}/xpub`, { body: { xpub }, write: w ?? {} }),
      watch: (symbol, req, w) => call('PUT', `/chains/${seg(symbol)}/watch`, { body: defined(req), write: w ?? {} }),
      getWatch: (symbol) => call('GET', `/chains/${seg(symbol)}/watch`),
      watches: () => call('GET', '/chain-watches'),
      unwatch: (symbol, w) => call('DELETE', `/chains/${seg(symbol)}/watch`, { write: w ?? {} }),
      setHotWallet: (symbol, privateKey, w) =>
        call('PUT', `/chains/${seg(symbol)}/hot-wallet`, {
          body: privateKey === undefined ? {} : { privateKey },
          write: w ?? {},
        }),
      getHotWallet: (symbol) => call('GET', `/chains/${seg(symbol)}/hot-wallet`),
      removeHotWallet: (symbol, w) => call('DELETE', `/chains/${seg(symbol)}/hot-wallet`, { write: w ?? {} }),
    },
    networks: {
      list: (q) => call('GET', '/networks', { query: { asset: q.asset, chain: q.chain } }),
      create: (req, w) => call('POST', '/networks', { body: defined(req), write: w ?? {} }),
      update: (id, change, w) => call('PATCH', `/networks/${seg(id)}`, { body: defined(change), write: w ?? {} }),
    },
    addresses: {
      list: (q) =>
        call('GET', '/addresses', {
          query: { limit: q.limit, cursor: q.cursor, chain: q.chain, checkoutId: q.checkoutId },
        }),
    },
  };
}
