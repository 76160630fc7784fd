import { decimalText, jsonDecimal, type PayoutActor } from '@hostpay/protocol';
import { insertRow } from '../../store/prepared.js';
import type { PayoutDestinationTable, PayoutTable, PayoutTimelineTable } from './tables.js';
import type { Db } from '../../store/store.js';
import type { PayoutStatus } from './states.js';

/** A payout row with the names its view and its senders need. */
export type PayoutFull = PayoutTable & {
  asset_symbol: string;
  asset_decimals: number;
  chain_symbol: string;
  chain_family: string;
  network_name: string;
  token_contract: string | null;
  merchant_name: string;
};

export interface LoadedPayout {
  row: PayoutFull;
  timeline: PayoutTimelineTable[];
}

/** The payout row alone; on PostgreSQL locked until the transaction ends (lock order: states.ts). */
export function lockPayout(db: Db, id: string, dialect: 'sqlite' | 'postgres'): Promise<PayoutTable | undefined> {
  const q = db.selectFrom('payouts').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

export function payoutsWithNames(db: Db) {
  return db
    .selectFrom('payouts as p')
    .innerJoin('assets as a', 'a.id', 'p.asset_id')
    .innerJoin('chains as c', 'c.id', 'p.chain_id')
    .innerJoin('networks as n', 'n.id', 'p.network_id')
    .innerJoin('merchants as m', 'm.id', 'p.merchant_id')
    .selectAll('p')
    .select([
      'a.symbol as asset_symbol',
      'a.decimals as asset_decimals',
      'c.symbol as chain_symbol',
      'c.family as chain_family',
      'n.name as network_name',
      'n.token_contract as token_contract',
      'm.name as merchant_name',
    ]);
}

export async function loadPayouts(db: Db, rows: PayoutFull[]): Promise<LoadedPayout[]> {
  if (rows.length === 0) return [];
  const timeline = await db
    .selectFrom('payout_timeline')
    .selectAll()
    .where(
      'payout_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('payout_id')
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ row, timeline: timeline.filter((t) => t.payout_id === row.id) }));
}

export async function findPayout(db: Db, id: string): Promise<LoadedPayout | undefined> {
  const row = await payoutsWithNames(db).where('p.id', '=', id).executeTakeFirst();
  if (row === undefined) return undefined;
  return (await loadPayouts(db, [row]))[0];
}

export async function appendPayoutTimeline(
  db: Db,
  payoutId: string,
  seq: number,
  entry: { status: PayoutStatus; reason: string | null; by: PayoutActor; at: string },
): Promise<void> {
  await insertRow(db, 'payout_timeline', { payout_id: payoutId, seq, ...entry });
}

const num = (text: string) => jsonDecimal(decimalText(text));

/** The payout on the wire (protocol `Payout`). */
export function payoutView({ row, timeline }: LoadedPayout) {
  return {
    id: row.id,
    status: row.status as PayoutStatus,
    reason: row.reason,
    walletId: row.wallet_id,
    asset: row.asset_symbol,
    chain: row.chain_symbol,
    network: row.network_name,
    amount: num(row.amount),
    networkFee: num(row.network_fee),
    total: num(row.total),
    destination: row.destination,
    destinationId: row.destination_id,
    reference: row.reference,
    refundOf: row.refund_of,
    txHash: row.tx_hash,
    confirmations: row.confirmations,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    timeline: timeline.map((t) => ({
      status: t.status as PayoutStatus,
      reason: t.reason,
      at: t.at,
      by: t.by as PayoutActor,
    })),
  };
}

export type PayoutViewObject = ReturnType<typeof payoutView>;

/** A payout as operators see it: the merchant's object plus its merchant id. */
/** What operators see: the merchant's view, plus whose payout it is (`merchant`, as operator checkout views have). */
export const adminPayoutView = (p: LoadedPayout) => ({
  ...payoutView(p),
  merchantId: p.row.merchant_id,
  merchant: { id: p.row.merchant_id, name: p.row.merchant_name },
});

export type DestinationFull = PayoutDestinationTable & { chain_symbol: string };

/** `cooling_off` reads as `active` once its time has come: no timer has to flip it. */
export function destinationStatus(d: PayoutDestinationTable, nowIso: string): 'cooling_off' | 'active' | 'revoked' {
  if (d.status === 'cooling_off' && d.active_from <= nowIso) return 'active';
  return d.status as 'cooling_off' | 'active' | 'revoked';
}

export function destinationView(d: DestinationFull, nowIso: string) {
  return {
    id: d.id,
    chain: d.chain_symbol,
    address: d.address,
    label: d.label,
    status: destinationStatus(d, nowIso),
    activeFrom: d.active_from,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
  };
}

export function destinationsWithNames(db: Db) {
  return db
    .selectFrom('payout_destinations as d')
    .innerJoin('chains as c', 'c.id', 'd.chain_id')
    .selectAll('d')
    .select('c.symbol as chain_symbol');
}
