import type { Db } from '../store.js';
import type { AssetTable, ChainTable, NetworkTable } from '../schema.js';

export type AssetRow = AssetTable;
export type ChainRow = ChainTable;
export type NetworkRow = NetworkTable;

export function findAssetBySymbol(db: Db, symbol: string): Promise<AssetRow | undefined> {
  return db.selectFrom('assets').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export function findChainBySymbol(db: Db, symbol: string): Promise<ChainRow | undefined> {
  return db.selectFrom('chains').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export function listAssets(db: Db): Promise<AssetRow[]> {
  return db.selectFrom('assets').selectAll().orderBy('symbol').execute();
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

export async function upsertAsset(db: Db, row: AssetRow): Promise<void> {
  await db
    .insertInto('assets')
    .values(row)
    .onConflict((oc) => oc.column('symbol').doUpdateSet({ name: row.name, image: row.image, decimals: row.decimals, is_crypto: row.is_crypto }))
    .execute();
}

export async function upsertChain(db: Db, row: ChainRow): Promise<void> {
  await db.insertInto('chains').values(row).onConflict((oc) => oc.column('symbol').doUpdateSet({ name: row.name })).execute();
}

export async function upsertNetwork(db: Db, row: NetworkRow): Promise<void> {
  await db
    .insertInto('networks')
    .values(row)
    .onConflict((oc) => oc.columns(['asset_id', 'chain_id']).doUpdateSet({ name: row.name, deposit_enabled: row.deposit_enabled }))
    .execute();
}
