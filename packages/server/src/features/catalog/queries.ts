import type { Db } from '../../store/store.js';
import type { AssetTable, ChainTable, NetworkTable } from '../../store/schema.js';

export type AssetRow = AssetTable;
export type ChainRow = ChainTable;
export type NetworkRow = NetworkTable;

export function findAssetBySymbol(db: Db, symbol: string): Promise<AssetRow | undefined> {
  return db.selectFrom('assets').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export function listNetworksOfAssets(db: Db, assetIds: string[]) {
  if (assetIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('networks')
    .innerJoin('chains', 'chains.id', 'networks.chain_id')
    .select(['networks.id', 'networks.asset_id', 'networks.chain_id', 'networks.name', 'networks.deposit_enabled', 'chains.symbol as chain_symbol'])
    .where('networks.asset_id', 'in', assetIds)
    .orderBy('networks.asset_id')
    .orderBy('networks.name')
    .execute();
}

