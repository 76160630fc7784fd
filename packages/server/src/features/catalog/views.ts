import type { AssetRow, ChainWithKeyRow, NetworkDetailRow } from './queries.js';

/** Stored catalog rows as the admin API shows them. */

export const assetView = (r: AssetRow) => ({
  id: r.id,
  symbol: r.symbol,
  name: r.name,
  image: r.image,
  precision: r.decimals,
  isCrypto: r.is_crypto === 1,
  active: r.active === 1,
});

export const chainView = (r: ChainWithKeyRow) => ({
  id: r.id,
  symbol: r.symbol,
  name: r.name,
  family: r.family,
  networkType: r.network_type,
  confirmationsRequired: r.confirmations_required,
  active: r.active === 1,
  explorerTxUrl: r.explorer_tx_url,
  accountKey:
    r.account_key_id === null || r.key_preview === null || r.key_fingerprint === null
      ? null
      : {
          id: r.account_key_id,
          preview: r.key_preview,
          fingerprint: r.key_fingerprint,
          nextIndex: Number(r.key_next_index),
        },
});

export const networkView = (r: NetworkDetailRow) => ({
  id: r.id,
  asset: r.asset_symbol,
  chain: r.chain_symbol,
  name: r.name,
  tokenContract: r.token_contract,
  depositEnabled: r.deposit_enabled === 1,
});

export type AssetView = ReturnType<typeof assetView>;
export type ChainView = ReturnType<typeof chainView>;
export type CatalogNetworkView = ReturnType<typeof networkView>;
