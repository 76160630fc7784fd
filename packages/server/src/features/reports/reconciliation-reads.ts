import type { Db } from '../../store/store.js';
import { WATCHER_OPERATOR } from './reconciliation-types.js';
import { keysetWhere, type Cursor, type PageRequest } from './page.js';
import type { TimeRange } from './range.js';

/** A transfer as the reconciliation weighs it. */
export interface ReconTransfer {
  id: string;
  chain: string;
  asset: string;
  tx_hash: string;
  amount: string;
  confirmations: number;
  retracted: number;
  exception: string | null;
  checkout_id: string | null;
  option_id: string | null;
  detected_at: string;
  checkout_status: string | null;
  settled_option_id: string | null;
  credited_posting_id: string | null;
  confirmations_required: number | null;
}

function keyset(db: Db, dialect: 'sqlite' | 'postgres', range: TimeRange, after: Cursor | null, limit: number) {
  return { db, dialect, merchantId: null, range, after, limit } satisfies PageRequest;
}

/** The next page of transfers recorded in the range, oldest first by (detected_at, id): `transfers_detected`. */
export function transfersPage(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  range: TimeRange,
  after: Cursor | null,
  limit: number,
): Promise<ReconTransfer[]> {
  return db
    .selectFrom('transfers as t')
    .innerJoin('chains as ch', 'ch.id', 't.chain_id')
    .innerJoin('assets as a', 'a.id', 't.asset_id')
    .leftJoin('checkouts as c', 'c.id', 't.checkout_id')
    .leftJoin('checkout_options as o', 'o.id', 't.option_id')
    .select([
      't.id',
      'ch.symbol as chain',
      'a.symbol as asset',
      't.tx_hash',
      't.amount',
      't.confirmations',
      't.retracted',
      't.exception',
      't.checkout_id',
      't.option_id',
      't.detected_at',
      'c.status as checkout_status',
      'c.settled_option_id',
      'c.credited_posting_id',
      'o.confirmations_required',
    ])
    .where(keysetWhere(keyset(db, dialect, range, after, limit), 't.detected_at', 't.id'))
    .orderBy('t.detected_at')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/**
 * Of these transfers, the ones whose first report came from someone other than a chain watcher
 * (an operator's token, the CLI, the demo): the audit log keeps who first reported each
 * (`transfer.report` with no `before`), read by `audit_log_object`. A sandbox's simulated payment
 * is not audited: it stands for a watcher's sighting.
 */
export async function reportedByHand(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('audit_log')
    .select(['object_id', 'operator'])
    .where('object_type', '=', 'transfer')
    .where('object_id', 'in', ids)
    .where('action', '=', 'transfer.report')
    .where('before', 'is', null)
    .execute();
  return new Set(rows.filter((r) => r.operator !== WATCHER_OPERATOR).map((r) => r.object_id));
}

/** A payout timeline entry in the range, with the payout as it stands. */
export interface ReconPayoutEntry {
  payout_id: string;
  seq: number;
  entry_status: string;
  at: string;
  status: string;
  chain: string;
  asset: string;
  amount: string;
  tx_hash: string | null;
}

/** The statuses whose entries the reconciliation reads: completions, sends (and reorganisations), approvals awaited. */
export const PAYOUT_ENTRY_STATUSES = ['completed', 'sent', 'pending_approval'] as const;

/** The next page of those entries in the range, by (at, payout id): `payout_timeline_status_at`, one status at a time. */
export function payoutEntriesPage(
  db: Db,
  dialect: 'sqlite' | 'postgres',
  status: string,
  range: TimeRange,
  after: Cursor | null,
  limit: number,
): Promise<ReconPayoutEntry[]> {
  return db
    .selectFrom('payout_timeline as tl')
    .innerJoin('payouts as p', 'p.id', 'tl.payout_id')
    .innerJoin('chains as ch', 'ch.id', 'p.chain_id')
    .innerJoin('assets as a', 'a.id', 'p.asset_id')
    .select([
      'tl.payout_id',
      'tl.seq',
      'tl.status as entry_status',
      'tl.at',
      'p.status',
      'ch.symbol as chain',
      'a.symbol as asset',
      'p.amount',
      'p.tx_hash',
    ])
    .where('tl.status', '=', status)
    .where(keysetWhere(keyset(db, dialect, range, after, limit), 'tl.at', 'tl.payout_id'))
    .orderBy('tl.at')
    .orderBy('tl.payout_id')
    .limit(limit)
    .execute();
}

/** Each payout's timeline: its last entry and whether an operator sent or completed it. */
export interface PayoutHistory {
  lastSeq: number;
  lastReason: string | null;
  byHand: boolean;
}

export async function payoutHistories(db: Db, ids: readonly string[]): Promise<Map<string, PayoutHistory>> {
  const out = new Map<string, PayoutHistory>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('payout_timeline')
    .select(['payout_id', 'seq', 'status', 'reason', 'by'])
    .where('payout_id', 'in', [...new Set(ids)])
    .orderBy('payout_id')
    .orderBy('seq')
    .execute();
  for (const r of rows) {
    const h = out.get(r.payout_id) ?? { lastSeq: -1, lastReason: null, byHand: false };
    h.lastSeq = r.seq;
    h.lastReason = r.reason;
    if (r.by === 'operator' && (r.status === 'sent' || r.status === 'completed')) h.byHand = true;
    out.set(r.payout_id, h);
  }
  return out;
}
