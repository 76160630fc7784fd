import type { Db } from '../../store/store.js';
import type { FeeScheduleTable, RateTable } from '../../store/schema.js';

export type FeeScheduleRow = FeeScheduleTable;
export type RateRow = RateTable;

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

/** Rate for base -> quote, directly or as the inverse of quote -> base. */
export function findRates(db: Db, base: string, quote: string): Promise<RateRow[]> {
  return db
    .selectFrom('rates')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('base', '=', base), eb('quote', '=', quote)]),
        eb.and([eb('base', '=', quote), eb('quote', '=', base)]),
      ]),
    )
    .execute();
}

export async function upsertRate(db: Db, row: RateRow): Promise<void> {
  await db
    .insertInto('rates')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['base', 'quote']).doUpdateSet({
        rate: row.rate,
        source: row.source,
        updated_at: row.updated_at,
        fetched_at: row.fetched_at,
        max_age_seconds: row.max_age_seconds,
        pinned: row.pinned,
      }),
    )
    .execute();
}
