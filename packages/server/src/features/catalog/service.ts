import { HostpayError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import type { Db } from '../../store/store.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { invalid, type AdminDeps } from '../../admin/deps.js';
import {
  checkConfirmations,
  checkExplorerTxUrl,
  checkFamily,
  checkImage,
  checkName,
  checkNetworkType,
  checkPrecision,
  checkTokenContract,
  defaultConfirmations,
} from './fields.js';
import {
  findAssetBySymbol,
  findChainBySymbol,
  listAssets,
  listChainsWithKeys,
  listNetworkDetails,
  requireAsset,
  requireChain,
} from './queries.js';
import { assetView, chainView, networkView } from './views.js';
import { accountKeyAdmin } from './keys.js';

export interface AssetRequest {
  symbol: string;
  name: string;
  image?: string | undefined;
  precision: number;
  isCrypto?: boolean | undefined;
  active?: boolean | undefined;
}
/** Fields to change; undefined ones stay. */
export type AssetChange = { [K in Exclude<keyof AssetRequest, 'symbol'>]?: AssetRequest[K] | undefined };

export interface ChainRequest {
  symbol: string;
  name: string;
  family: string;
  networkType?: string | undefined;
  confirmationsRequired?: number | undefined;
  active?: boolean | undefined;
  /** https template with {tx}; null or absent: no explorer link. */
  explorerTxUrl?: string | null | undefined;
}
export type ChainChange = { [K in Exclude<keyof ChainRequest, 'symbol'>]?: ChainRequest[K] | undefined };

export interface NetworkRequest {
  asset: string;
  chain: string;
  name: string;
  tokenContract?: string | null | undefined;
  depositEnabled?: boolean | undefined;
}
export type NetworkChange = { [K in 'name' | 'tokenContract' | 'depositEnabled']?: NetworkRequest[K] | undefined };

const SYMBOL = /^[A-Z0-9]{2,12}$/;

function checkSymbol(what: string, text: string): string {
  const symbol = text.trim().toUpperCase();
  if (!SYMBOL.test(symbol)) invalid(`${what} symbol must be 2 to 12 letters or digits, got ${JSON.stringify(text)}`);
  return symbol;
}

const isUniqueViolation = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
};

const flag = (value: boolean | undefined, before: number): number => (value === undefined ? before : value ? 1 : 0);

/**
 * Lowering an asset's precision would leave stored amounts (balances, fee figures, amounts due)
 * finer than the asset: allowed only while nothing refers to it yet.
 */
async function checkPrecisionChange(
  trx: Db,
  asset: { id: string; symbol: string; decimals: number },
  precision: number,
): Promise<void> {
  if (precision >= asset.decimals) return;
  const used = [
    await trx.selectFrom('wallets').select('id').where('asset_id', '=', asset.id).executeTakeFirst(),
    await trx.selectFrom('fee_schedules').select('id').where('currency', '=', asset.symbol).executeTakeFirst(),
    await trx
      .selectFrom('settlement_currencies')
      .select('currency')
      .where((eb) => eb.or([eb('currency', '=', asset.symbol), eb('settlement_currency', '=', asset.symbol)]))
      .executeTakeFirst(),
    await trx.selectFrom('checkout_options').select('id').where('asset_id', '=', asset.id).executeTakeFirst(),
  ];
  if (used.some((row) => row !== undefined)) {
    invalid(
      `precision of ${asset.symbol} can no longer be lowered (from ${asset.decimals} to ${precision}): wallets, fee tiers or checkouts already hold amounts in it; raising it is allowed`,
    );
  }
}

/**
 * The catalog: assets, chains and the networks (asset on chain) wallets and checkout options are
 * opened on. Every change is audited in its transaction; afterwards the answers that name assets
 * and chains (wallet lists, fee previews) are dropped from the caches of every instance.
 */
export function catalogAdmin(deps: AdminDeps) {
  const { store, caches } = deps;
  const db = store.db;

  async function write<T>(fn: (trx: Db) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await store.writeTransaction(fn);
    } catch (err) {
      // The checks above run before the insert; on PostgreSQL a concurrent request can still
      // insert the same symbol (or pair) in between, and the unique constraint says no.
      if (isUniqueViolation(err))
        invalid(
          'that symbol (or asset and chain pair) was just added by another request: read it, then change it instead',
        );
      throw err;
    }
    await caches.invalidate({ kind: 'catalog' });
    return result;
  }

  async function getChain(symbol: string) {
    const [row] = await listChainsWithKeys(db, symbol.toUpperCase());
    if (row === undefined) throw new HostpayError('NOT_FOUND', `chain ${symbol.toUpperCase()} does not exist`);
    return chainView(row);
  }

  async function getNetwork(id: string) {
    const [row] = await listNetworkDetails(db, { id });
    if (row === undefined) throw new HostpayError('NOT_FOUND', `network ${id} does not exist`);
    return networkView(row);
  }

  return {
    listAssets: async () => (await listAssets(db)).map(assetView),
    getAsset: async (symbol: string) => assetView(await requireAsset(db, symbol)),

    async createAsset(req: AssetRequest, ctx: AuditContext) {
      const symbol = checkSymbol('asset', req.symbol);
      const row = {
        id: newId('ast'),
        symbol,
        name: checkName('asset', req.name),
        image: checkImage(req.image ?? `${symbol.toLowerCase()}.png`),
        decimals: checkPrecision(req.precision),
        is_crypto: req.isCrypto === false ? 0 : 1,
        active: req.active === false ? 0 : 1,
      };
      return write(async (trx) => {
        if (await findAssetBySymbol(trx, symbol))
          invalid(
            `asset ${symbol} already exists: change it with PATCH /admin/v1/assets/${symbol} (hostpay asset update ${symbol})`,
          );
        await trx.insertInto('assets').values(row).execute();
        await recordAudit(trx, ctx, {
          action: 'asset.create',
          objectType: 'asset',
          objectId: row.id,
          before: null,
          after: assetView(row),
        });
        return assetView(row);
      });
    },

    updateAsset: (symbol: string, change: AssetChange, ctx: AuditContext) =>
      write(async (trx) => {
        const before = await requireAsset(trx, symbol);
        const after = {
          ...before,
          name: change.name === undefined ? before.name : checkName('asset', change.name),
          image: change.image === undefined ? before.image : checkImage(change.image),
          decimals: change.precision === undefined ? before.decimals : checkPrecision(change.precision),
          is_crypto: flag(change.isCrypto, before.is_crypto),
          active: flag(change.active, before.active),
        };
        await checkPrecisionChange(trx, before, after.decimals);
        const { id, ...fields } = after;
        await trx.updateTable('assets').set(fields).where('id', '=', id).execute();
        await recordAudit(trx, ctx, {
          action: 'asset.update',
          objectType: 'asset',
          objectId: id,
          before: assetView(before),
          after: assetView(after),
        });
        return assetView(after);
      }),

    listChains: async () => (await listChainsWithKeys(db)).map(chainView),
    getChain,

    async createChain(req: ChainRequest, ctx: AuditContext) {
      const symbol = checkSymbol('chain', req.symbol);
      const family = checkFamily(req.family);
      const row = {
        id: newId('chn'),
        symbol,
        name: checkName('chain', req.name),
        family,
        network_type: checkNetworkType(req.networkType ?? 'mainnet'),
        confirmations_required: checkConfirmations(req.confirmationsRequired ?? defaultConfirmations(family)),
        account_key_id: null,
        active: req.active === false ? 0 : 1,
        explorer_tx_url: checkExplorerTxUrl(req.explorerTxUrl ?? null),
      };
      await write(async (trx) => {
        if (await findChainBySymbol(trx, symbol))
          invalid(
            `chain ${symbol} already exists: change it with PATCH /admin/v1/chains/${symbol} (hostpay chain update ${symbol})`,
          );
        await trx.insertInto('chains').values(row).execute();
        await recordAudit(trx, ctx, {
          action: 'chain.create',
          objectType: 'chain',
          objectId: row.id,
          before: null,
          after: chainView({ ...row, key_preview: null, key_fingerprint: null, key_next_index: null }),
        });
      });
      return getChain(symbol);
    },

    async updateChain(symbol: string, change: ChainChange, ctx: AuditContext) {
      const chainSymbol = await write(async (trx) => {
        const [before] = await listChainsWithKeys(trx, symbol.toUpperCase());
        if (before === undefined) throw new HostpayError('NOT_FOUND', `chain ${symbol.toUpperCase()} does not exist`);
        if (change.family !== undefined && change.family.toLowerCase() !== before.family) {
          invalid(
            `family of chain ${before.symbol} is fixed after creation (it is ${before.family}): addresses already handed out were derived for it; add a new chain instead`,
          );
        }
        const networkType =
          change.networkType === undefined ? before.network_type : checkNetworkType(change.networkType);
        if (networkType !== before.network_type) {
          const used =
            before.account_key_id !== null ||
            (await trx
              .selectFrom('deposit_addresses')
              .select('id')
              .where('chain_id', '=', before.id)
              .executeTakeFirst()) !== undefined;
          if (used)
            invalid(
              `networkType of chain ${before.symbol} cannot change once it has an extended public key or deposit addresses: keys and address prefixes depend on it; add a new chain instead`,
            );
        }
        const after = {
          ...before,
          name: change.name === undefined ? before.name : checkName('chain', change.name),
          network_type: networkType,
          confirmations_required:
            change.confirmationsRequired === undefined
              ? before.confirmations_required
              : checkConfirmations(change.confirmationsRequired),
          active: flag(change.active, before.active),
          explorer_tx_url:
            change.explorerTxUrl === undefined ? before.explorer_tx_url : checkExplorerTxUrl(change.explorerTxUrl),
        };
        await trx
          .updateTable('chains')
          .set({
            name: after.name,
            network_type: after.network_type,
            confirmations_required: after.confirmations_required,
            active: after.active,
            explorer_tx_url: after.explorer_tx_url,
          })
          .where('id', '=', before.id)
          .execute();
        await recordAudit(trx, ctx, {
          action: 'chain.update',
          objectType: 'chain',
          objectId: before.id,
          before: chainView(before),
          after: chainView(after),
        });
        return before.symbol;
      });
      return getChain(chainSymbol);
    },

    listNetworks: async (filter: { asset?: string | undefined; chain?: string | undefined } = {}) =>
      (await listNetworkDetails(db, { asset: filter.asset?.toUpperCase(), chain: filter.chain?.toUpperCase() })).map(
        networkView,
      ),
    getNetwork,

    async createNetwork(req: NetworkRequest, ctx: AuditContext) {
      const id = newId('net');
      await write(async (trx) => {
        const asset = await requireAsset(trx, req.asset);
        const chain = await requireChain(trx, req.chain);
        const row = {
          id,
          asset_id: asset.id,
          chain_id: chain.id,
          name: checkName('network', req.name),
          token_contract: checkTokenContract(chain.family, req.tokenContract ?? null),
          deposit_enabled: req.depositEnabled === false ? 0 : 1,
        };
        const dup = await trx
          .selectFrom('networks')
          .select('id')
          .where('asset_id', '=', asset.id)
          .where('chain_id', '=', chain.id)
          .executeTakeFirst();
        if (dup)
          invalid(
            `${asset.symbol} is already on ${chain.symbol} (network ${dup.id}): change it with PATCH /admin/v1/networks/${dup.id}`,
          );
        await trx.insertInto('networks').values(row).execute();
        await recordAudit(trx, ctx, {
          action: 'network.create',
          objectType: 'network',
          objectId: id,
          before: null,
          after: {
            asset: asset.symbol,
            chain: chain.symbol,
            name: row.name,
            tokenContract: row.token_contract,
            depositEnabled: row.deposit_enabled === 1,
          },
        });
      });
      return getNetwork(id);
    },

    async updateNetwork(id: string, change: NetworkChange, ctx: AuditContext) {
      await write(async (trx) => {
        const [before] = await listNetworkDetails(trx, { id });
        if (before === undefined) throw new HostpayError('NOT_FOUND', `network ${id} does not exist`);
        const after = {
          ...before,
          name: change.name === undefined ? before.name : checkName('network', change.name),
          token_contract:
            change.tokenContract === undefined
              ? before.token_contract
              : checkTokenContract(before.chain_family, change.tokenContract),
          deposit_enabled: flag(change.depositEnabled, before.deposit_enabled),
        };
        await trx
          .updateTable('networks')
          .set({ name: after.name, token_contract: after.token_contract, deposit_enabled: after.deposit_enabled })
          .where('id', '=', id)
          .execute();
        await recordAudit(trx, ctx, {
          action: 'network.update',
          objectType: 'network',
          objectId: id,
          before: networkView(before),
          after: networkView(after),
        });
      });
      return getNetwork(id);
    },

    ...accountKeyAdmin(deps),
  };
}

export type CatalogAdmin = ReturnType<typeof catalogAdmin>;
