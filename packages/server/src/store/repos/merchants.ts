import type { Db } from '../store.js';
import type { MerchantTable } from '../schema.js';
import { newId, nowIso } from '../ids.js';

export type MerchantRow = MerchantTable;

export async function insertMerchant(db: Db, name: string): Promise<MerchantRow> {
  const at = nowIso();
  const row: MerchantRow = { id: newId('mer'), name, status: 'active', created_at: at, updated_at: at };
  await db.insertInto('merchants').values(row).execute();
  return row;
}

export function findMerchant(db: Db, id: string): Promise<MerchantRow | undefined> {
  return db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listMerchants(db: Db): Promise<MerchantRow[]> {
  return db.selectFrom('merchants').selectAll().orderBy('created_at').orderBy('id').execute();
}
