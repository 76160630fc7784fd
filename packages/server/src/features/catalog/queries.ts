import { required } from '../../admin/deps.js';
import { HostpayError } from '../../errors.js';
import type { Db } from '../../store/store.js';
import type { AccountKeyTable, AssetTable, ChainTable, NetworkTable } from './tables.js';

export type AssetRow = AssetTable;
export type ChainRow = ChainTable;
export type NetworkRow = NetworkTable;
export type AccountKeyRow = AccountKeyTable;

export function findAssetBySymbol(db: Db, symbol: string): Promise<AssetRow | undefined> {
  return db.selectFrom('assets').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

export function listNetworksOfAssets(db: Db, assetIds: string[]) {
  if (assetIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('networks')
    .innerJoin('chains', 'chains.id', 'networks.chain_id')
    .select([
      'networks.id',
      'networks.asset_id',
      'networks.chain_id',
      'networks.name',
      'networks.deposit_enabled',
      'chains.symbol as chain_symbol',
    ])
    .where('networks.asset_id', 'in', assetIds)
    .orderBy('networks.asset_id')
    .orderBy('networks.name')
    .execute();
}

/** The asset or chain of a symbol (any case), or 404 naming it. */
export const requireAsset = (db: Db, symbol: string) =>
  required(findAssetBySymbol(db, symbol.toUpperCase()), `asset ${symbol.toUpperCase()}`);
export const requireChain = (db: Db, symbol: string) =>
  required(findChainBySymbol(db, symbol.toUpperCase()), `chain ${symbol.toUpperCase()}`);

export const listAssets = (db: Db): Promise<AssetRow[]> =>
  db.selectFrom('assets').selectAll().orderBy('symbol').execute();

export function findChainBySymbol(db: Db, symbol: string): Promise<ChainRow | undefined> {
  return db.selectFrom('chains').selectAll().where('symbol', '=', symbol).executeTakeFirst();
}

/** Chains with the account key they derive from (null when none is set), by symbol. */
export function listChainsWithKeys(db: Db, symbol?: string) {
  let q = db
    .selectFrom('chains')
    .leftJoin('account_keys', 'account_keys.id', 'chains.account_key_id')
    .selectAll('chains')
    .select([
      'account_keys.xpub_preview as key_preview',
      'account_keys.xpub_fingerprint as key_fingerprint',
      'account_keys.next_index as key_next_index',
    ]);
  if (symbol !== undefined) q = q.where('chains.symbol', '=', symbol);
  return q.orderBy('chains.symbol').execute();
}
export type ChainWithKeyRow = Awaited<ReturnType<typeof listChainsWithKeys>>[number];

/** Networks with their asset and chain symbols (and the chain's family, which the contract format depends on). */
export function listNetworkDetails(
  db: Db,
  filter: { id?: string | undefined; asset?: string | undefined; chain?: string | undefined } = {},
) {
  let q = db
    .selectFrom('networks')
    .innerJoin('assets', 'assets.id', 'networks.asset_id')
    .innerJoin('chains', 'chains.id', 'networks.chain_id')
    .selectAll('networks')
    .select(['assets.symbol as asset_symbol', 'chains.symbol as chain_symbol', 'chains.family as chain_family']);
  if (filter.id !== undefined) q = q.where('networks.id', '=', filter.id);
  if (filter.asset !== undefined) q = q.where('assets.symbol', '=', filter.asset);
  if (filter.chain !== undefined) q = q.where('chains.symbol', '=', filter.chain);
  return q.orderBy('assets.symbol').orderBy('chains.symbol').execute();
}
export type NetworkDetailRow = Awaited<ReturnType<typeof listNetworkDetails>>[number];

/** The key of a family and network type by its `xpubHash` (the stored text is sealed). */
export function findAccountKey(
  db: Db,
  family: string,
  networkType: string,
  hash: string,
): Promise<AccountKeyRow | undefined> {
  return db
    .selectFrom('account_keys')
    .selectAll()
    .where('family', '=', family)
    .where('network_type', '=', networkType)
    .where('xpub_hash', '=', hash)
    .executeTakeFirst();
}

/** The symbols of the chains deriving from an account key (EVM chains may share one). */
export async function chainsUsingKey(db: Db, accountKeyId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('chains')
    .select('symbol')
    .where('account_key_id', '=', accountKeyId)
    .orderBy('symbol')
    .execute();
  return rows.map((r) => r.symbol);
}

/** Deposit addresses with their chain symbol, for the operator's list (paged by the caller). */
export function depositAddressQuery(db: Db, filter: { chainId?: string | undefined; checkoutId?: string | undefined }) {
  let q = db
    .selectFrom('deposit_addresses')
    .innerJoin('chains', 'chains.id', 'deposit_addresses.chain_id')
    .selectAll('deposit_addresses')
    .select('chains.symbol as chain_symbol');
  if (filter.chainId !== undefined) q = q.where('deposit_addresses.chain_id', '=', filter.chainId);
  if (filter.checkoutId !== undefined) q = q.where('deposit_addresses.checkout_id', '=', filter.checkoutId);
  return q;
}

/** The asset of a symbol (any case), or 422 UNSUPPORTED_CURRENCY. */
export async function requireAssetRow(db: Db, symbol: string) {
  const row = await db.selectFrom('assets').selectAll().where('symbol', '=', symbol.toUpperCase()).executeTakeFirst();
  if (!row) throw new HostpayError('UNSUPPORTED_CURRENCY', `asset ${symbol} is not known`);
  return row;
}
