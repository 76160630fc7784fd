import type { Db } from '../../store/store.js';
import type { FeeScheduleTable } from './tables.js';

export type FeeScheduleRow = FeeScheduleTable;

/** The default ('') and the merchant's tiers for a currency; the caller picks the override. */
export function listFeeTiers(db: Db, merchantId: string, currency: string): Promise<FeeScheduleRow[]> {
  return db
    .selectFrom('fee_schedules')
    .selectAll()
    .where('currency', '=', currency)
    .where('merchant_id', 'in', ['', merchantId])
    .execute();
}

export async function upsertFeeTier(db: Db, row: FeeScheduleRow): Promise<void> {
  await db
    .insertInto('fee_schedules')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['merchant_id', 'currency', 'from_amount']).doUpdateSet({
        is_percentage: row.is_percentage,
        value: row.value,
        min_value: row.min_value,
        on_chain_fee: row.on_chain_fee,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function findSettlementCurrency(
  db: Db,
  merchantId: string,
  currency: string,
): Promise<string | undefined> {
  const rows = await db
    .selectFrom('settlement_currencies')
    .select(['merchant_id', 'settlement_currency'])
    .where('currency', '=', currency)
    .where('merchant_id', 'in', ['', merchantId])
    .execute();
  return (rows.find((r) => r.merchant_id === merchantId) ?? rows.find((r) => r.merchant_id === ''))
    ?.settlement_currency;
}

export async function upsertSettlementCurrency(
  db: Db,
  merchantId: string,
  currency: string,
  settlement: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('settlement_currencies')
    .values({ merchant_id: merchantId, currency, settlement_currency: settlement, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['merchant_id', 'currency']).doUpdateSet({ settlement_currency: settlement, updated_at: at }),
    )
    .execute();
}
