import { insertRow, insertRowStep } from '../../store/prepared.js';
import type { Db } from '../../store/store.js';
import type { CheckoutOptionTable, CheckoutTable, CheckoutTimelineTable, TransferTable } from './tables.js';

export type CheckoutRow = CheckoutTable;
export type OptionRow = CheckoutOptionTable & {
  asset_symbol: string;
  asset_decimals: number;
  chain_symbol: string;
  network_name: string;
  token_contract: string | null;
  chain_family: string;
};
export type TransferRow = TransferTable & { asset_symbol: string; chain_symbol: string };
export type TimelineRow = CheckoutTimelineTable;

/** The checkout row; on PostgreSQL locked until the transaction ends (SQLite's write lock is the transaction). */
export function lockCheckout(db: Db, id: string, dialect: 'sqlite' | 'postgres'): Promise<CheckoutRow | undefined> {
  const q = db.selectFrom('checkouts').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

export function findCheckout(db: Db, id: string): Promise<CheckoutRow | undefined> {
  return db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listOptions(db: Db, checkoutIds: string[]): Promise<OptionRow[]> {
  if (checkoutIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('checkout_options as o')
    .innerJoin('assets as a', 'a.id', 'o.asset_id')
    .innerJoin('chains as c', 'c.id', 'o.chain_id')
    .innerJoin('networks as n', 'n.id', 'o.network_id')
    .selectAll('o')
    .select([
      'a.symbol as asset_symbol',
      'a.decimals as asset_decimals',
      'c.symbol as chain_symbol',
      'c.family as chain_family',
      'n.name as network_name',
      'n.token_contract as token_contract',
    ])
    .where('o.checkout_id', 'in', checkoutIds)
    .orderBy('o.checkout_id')
    .orderBy('o.position')
    .execute();
}

export function listTransfers(db: Db, checkoutIds: string[]): Promise<TransferRow[]> {
  if (checkoutIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('transfers as t')
    .innerJoin('assets as a', 'a.id', 't.asset_id')
    .innerJoin('chains as c', 'c.id', 't.chain_id')
    .selectAll('t')
    .select(['a.symbol as asset_symbol', 'c.symbol as chain_symbol'])
    .where('t.checkout_id', 'in', checkoutIds)
    .orderBy('t.detected_at')
    .orderBy('t.id')
    .execute();
}

export function listTimeline(db: Db, checkoutIds: string[]): Promise<TimelineRow[]> {
  if (checkoutIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('checkout_timeline')
    .selectAll()
    .where('checkout_id', 'in', checkoutIds)
    .orderBy('checkout_id')
    .orderBy('seq')
    .execute();
}

export async function appendTimeline(
  db: Db,
  checkoutId: string,
  seq: number,
  status: string,
  reason: string | null,
  at: string,
): Promise<void> {
  await insertRow(db, 'checkout_timeline', { checkout_id: checkoutId, seq, status, reason, at });
}

/** appendTimeline as a step of a write path (store/steps.ts). */
export const timelineStep = (checkoutId: string, seq: number, status: string, reason: string | null, at: string) =>
  insertRowStep('checkout_timeline', { checkout_id: checkoutId, seq, status, reason, at });

/** Everything a checkout's view and its decisions need, in four queries. */
export async function loadCheckouts(db: Db, rows: CheckoutRow[]): Promise<LoadedCheckout[]> {
  const ids = rows.map((r) => r.id);
  const [options, transfers, timeline] = await Promise.all([
    listOptions(db, ids),
    listTransfers(db, ids),
    listTimeline(db, ids),
  ]);
  return rows.map((row) => ({
    row,
    options: options.filter((o) => o.checkout_id === row.id),
    transfers: transfers.filter((t) => t.checkout_id === row.id),
    timeline: timeline.filter((t) => t.checkout_id === row.id),
  }));
}

export interface LoadedCheckout {
  row: CheckoutRow;
  options: OptionRow[];
  transfers: TransferRow[];
  timeline: TimelineRow[];
}
