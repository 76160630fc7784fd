import type { Db } from '../../store/store.js';
import type { RefundLinkTable } from './tables.js';

export type RefundLinkRow = RefundLinkTable;

export async function insertRefundLink(db: Db, row: RefundLinkRow): Promise<void> {
  await db.insertInto('refund_links').values(row).execute();
}

/** The link of this checkout with this token hash; on PostgreSQL locked until the transaction ends. */
export function findRefundLink(
  db: Db,
  checkoutId: string,
  tokenHash: string,
  dialect?: 'sqlite' | 'postgres',
): Promise<RefundLinkRow | undefined> {
  const q = db
    .selectFrom('refund_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('checkout_id', '=', checkoutId);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

/** Marks the link used by this payout, unless something used it first: false then. */
export async function useRefundLink(db: Db, id: string, payoutId: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('refund_links')
    .set({ used_at: at, payout_id: payoutId })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** What the refund page says of the address it takes: the chain's family, its network type, the asset's network name. */
export function chainFacts(db: Db, assetId: string, chainId: string) {
  return db
    .selectFrom('chains as c')
    .leftJoin('networks as n', (j) => j.onRef('n.chain_id', '=', 'c.id').on('n.asset_id', '=', assetId))
    .select(['c.symbol', 'c.name', 'c.family', 'c.network_type', 'n.name as network'])
    .where('c.id', '=', chainId)
    .executeTakeFirst();
}

export function merchantName(db: Db, merchantId: string): Promise<string | undefined> {
  return db
    .selectFrom('merchants')
    .select('name')
    .where('id', '=', merchantId)
    .executeTakeFirst()
    .then((r) => r?.name);
}
