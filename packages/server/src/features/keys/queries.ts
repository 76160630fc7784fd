import type { Db } from '../../store/store.js';
import type { ApiKeyTable } from './tables.js';

export type ApiKeyRow = ApiKeyTable;

/** The key joined with its merchant's status: everything authentication needs in one read. */
export function findApiKeyWithMerchant(db: Db, id: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('merchants', 'merchants.id', 'api_keys.merchant_id')
    .selectAll('api_keys')
    .select('merchants.status as merchant_status')
    .where('api_keys.id', '=', id)
    .executeTakeFirst();
}

export function listApiKeys(db: Db, merchantId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().where('merchant_id', '=', merchantId).orderBy('created_at').execute();
}

export async function hasGrant(db: Db, keyId: string, merchantId: string): Promise<boolean> {
  // A suspended sub-merchant is not readable through a grant either.
  const row = await db
    .selectFrom('merchant_grants')
    .innerJoin('merchants', 'merchants.id', 'merchant_grants.merchant_id')
    .select('merchant_grants.key_id')
    .where('merchant_grants.key_id', '=', keyId)
    .where('merchant_grants.merchant_id', '=', merchantId)
    .where('merchants.status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}
