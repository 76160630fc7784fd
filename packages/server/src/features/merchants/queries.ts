import { required } from '../../admin/deps.js';
import type { Db } from '../../store/store.js';

/** The merchant's row, or 404 naming it. */
export async function requireMerchantRow(db: Db, id: string) {
  return required(db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst(), `merchant ${id}`);
}
