import type { Db } from '../../store/store.js';
import type { WalletTable } from './tables.js';

export type WalletRow = WalletTable;

/** Wallet rows of one merchant with their asset and chain, in creation order. */
export function listWalletDetails(db: Db, merchantId: string) {
  return db
    .selectFrom('wallets')
    .innerJoin('assets', 'assets.id', 'wallets.asset_id')
    .innerJoin('chains', 'chains.id', 'wallets.chain_id')
    .selectAll('wallets')
    .select([
      'assets.symbol as asset_symbol',
      'assets.name as asset_name',
      'assets.image as asset_image',
      'assets.is_crypto as asset_is_crypto',
      'chains.symbol as chain_symbol',
      'chains.name as chain_name',
    ])
    .where('wallets.merchant_id', '=', merchantId)
    .orderBy('wallets.created_at')
    .orderBy('wallets.id')
    .execute();
}
export type WalletDetailRow = Awaited<ReturnType<typeof listWalletDetails>>[number];

/**
 * The wallet row, locked until the transaction ends where the dialect needs it: PostgreSQL takes
 * a row lock (FOR UPDATE); SQLite's BEGIN IMMEDIATE already holds the database write lock.
 */
export function lockWallet(db: Db, id: string, dialect: 'sqlite' | 'postgres'): Promise<WalletRow | undefined> {
  const q = db.selectFrom('wallets').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

export async function updateBalances(
  db: Db,
  id: string,
  amount: string,
  freezeAmount: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('wallets')
    .set({ amount, freeze_amount: freezeAmount, updated_at: at })
    .where('id', '=', id)
    .execute();
}
