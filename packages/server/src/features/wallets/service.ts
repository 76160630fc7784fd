import { decimalText, jsonDecimal } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import { newId, nowIso } from '../../store/ids.js';
import { listNetworksOfAssets } from '../catalog/queries.js';
import { listWalletDetails } from './queries.js';
import { walletView } from './view.js';
import { recordAudit, type AuditContext } from '../audit/service.js';
import { required, type AdminDeps } from '../../admin/deps.js';
import { requireMerchantRow } from '../merchants/queries.js';
import { requireAssetRow } from '../catalog/queries.js';
import { page, type PageRequest } from '../../admin/pagination.js';

export interface WalletFilter {
  merchantId?: string | undefined;
  asset?: string | undefined;
  chain?: string | undefined;
  active?: boolean | undefined;
}

export function walletAdmin({ store, caches }: AdminDeps) {
  const db = store.db;

  async function getWallet(walletId: string) {
    const wallet = await required(
      db.selectFrom('wallets').select('merchant_id').where('id', '=', walletId).executeTakeFirst(),
      `wallet ${walletId}`,
    );
    const row = (await listWalletDetails(db, wallet.merchant_id)).find((r) => r.id === walletId);
    if (!row) throw new HostpayError('NOT_FOUND', `wallet ${walletId} does not exist`);
    return { merchantId: wallet.merchant_id, ...walletView(row, await listNetworksOfAssets(db, [row.asset_id])) };
  }

  return {
    getWallet,

    async createWallet(
      opts: { merchantId: string; asset: string; chain: string; active?: boolean | undefined },
      ctx: AuditContext,
    ) {
      const id = newId('wal');
      await store.writeTransaction(async (trx) => {
        await requireMerchantRow(trx, opts.merchantId);
        const asset = await requireAssetRow(trx, opts.asset);
        const chain = await required(
          trx.selectFrom('chains').selectAll().where('symbol', '=', opts.chain.toUpperCase()).executeTakeFirst(),
          `chain ${opts.chain}`,
        );
        // Any asset-on-chain of the catalog (operators add them), as long as both are active.
        const network = await trx
          .selectFrom('networks')
          .select('id')
          .where('asset_id', '=', asset.id)
          .where('chain_id', '=', chain.id)
          .executeTakeFirst();
        if (!network)
          throw new HostpayError(
            'UNSUPPORTED_CURRENCY',
            `${asset.symbol} is not available on ${chain.symbol}; see the asset's networks`,
          );
        if (asset.active !== 1)
          throw new HostpayError(
            'UNSUPPORTED_CURRENCY',
            `asset ${asset.symbol} is inactive: no new wallets in it until an operator activates it (hostpay asset update ${asset.symbol} --active)`,
          );
        if (chain.active !== 1)
          throw new HostpayError(
            'UNSUPPORTED_CURRENCY',
            `chain ${chain.symbol} is inactive: no new wallets on it until an operator activates it (hostpay chain update ${chain.symbol} --active)`,
          );
        const dup = await trx
          .selectFrom('wallets')
          .select('id')
          .where('merchant_id', '=', opts.merchantId)
          .where('asset_id', '=', asset.id)
          .where('chain_id', '=', chain.id)
          .executeTakeFirst();
        if (dup)
          throw new HostpayError(
            'IDEMPOTENCY_CONFLICT',
            `merchant ${opts.merchantId} already has a ${asset.symbol} wallet on ${chain.symbol}: ${dup.id}`,
          );
        const at = nowIso();
        const row = {
          id,
          merchant_id: opts.merchantId,
          asset_id: asset.id,
          chain_id: chain.id,
          active: opts.active === false ? 0 : 1,
          amount: '0',
          freeze_amount: '0',
          created_at: at,
          updated_at: at,
        };
        await trx.insertInto('wallets').values(row).execute();
        await recordAudit(trx, ctx, {
          action: 'wallet.create',
          objectType: 'wallet',
          objectId: id,
          before: null,
          after: { merchantId: opts.merchantId, asset: asset.symbol, chain: chain.symbol, active: row.active === 1 },
        });
      });
      await caches.invalidate({ kind: 'wallets', merchantId: opts.merchantId });
      return getWallet(id);
    },

    async setWalletActive(walletId: string, active: boolean, ctx: AuditContext) {
      const merchantId = await store.writeTransaction(async (trx) => {
        const before = await required(
          trx.selectFrom('wallets').selectAll().where('id', '=', walletId).executeTakeFirst(),
          `wallet ${walletId}`,
        );
        await trx
          .updateTable('wallets')
          .set({ active: active ? 1 : 0, updated_at: nowIso() })
          .where('id', '=', walletId)
          .execute();
        await recordAudit(trx, ctx, {
          action: active ? 'wallet.activate' : 'wallet.deactivate',
          objectType: 'wallet',
          objectId: walletId,
          before: { active: before.active === 1 },
          after: { active },
        });
        return before.merchant_id;
      });
      await caches.invalidate({ kind: 'wallets', merchantId });
      return getWallet(walletId);
    },

    listWallets(filter: WalletFilter & PageRequest) {
      let q = db
        .selectFrom('wallets')
        .innerJoin('assets', 'assets.id', 'wallets.asset_id')
        .innerJoin('chains', 'chains.id', 'wallets.chain_id')
        .select([
          'wallets.id',
          'wallets.merchant_id',
          'wallets.active',
          'wallets.amount',
          'wallets.freeze_amount',
          'wallets.created_at',
          'wallets.updated_at',
          'assets.symbol as asset',
          'chains.symbol as chain',
        ]);
      if (filter.merchantId) q = q.where('wallets.merchant_id', '=', filter.merchantId);
      if (filter.asset) q = q.where('assets.symbol', '=', filter.asset.toUpperCase());
      if (filter.chain) q = q.where('chains.symbol', '=', filter.chain.toUpperCase());
      if (filter.active !== undefined) q = q.where('wallets.active', '=', filter.active ? 1 : 0);
      return page(q, 'wallets.created_at', filter, (r) => ({
        id: r.id,
        merchantId: r.merchant_id,
        asset: r.asset,
        chain: r.chain,
        active: r.active === 1,
        amount: jsonDecimal(decimalText(r.amount)),
        freezeAmount: jsonDecimal(decimalText(r.freeze_amount)),
        createdAt: r.created_at,
        updatedAt: r.updated_at,
      }));
    },

    async assetNetworks(symbol: string) {
      const asset = await requireAssetRow(db, symbol);
      return (await listNetworksOfAssets(db, [asset.id])).map((n) => ({
        id: n.id,
        name: n.name,
        chainId: n.chain_id,
        chainSymbol: n.chain_symbol,
        depositEnabled: n.deposit_enabled === 1,
      }));
    },
  };
}

export type WalletAdmin = ReturnType<typeof walletAdmin>;
