import { Decimal, decimalText } from '@hostpay/protocol';
import type { Store } from '../../store/store.js';
import type { Cursor } from './page.js';
import type { TimeRange } from './range.js';
import {
  PAYOUT_ENTRY_STATUSES,
  payoutEntriesPage,
  payoutHistories,
  reportedByHand,
  transfersPage,
  type ReconPayoutEntry,
  type ReconTransfer,
} from './reconciliation-reads.js';
import type { Difference, Figures, Reconciliation, ReconciliationDay } from './reconciliation-types.js';

const PAGE = 1000;

/** The UTC day of an ISO time. */
const dayOf = (iso: string) => new Date(iso).toISOString().slice(0, 10);

/** Days keyed by chain and day, figures summed exactly (Decimal) and written as text at the end. */
class Book {
  private readonly days = new Map<string, ReconciliationDay & { sums: Record<string, Map<string, Decimal>> }>();

  day(chain: string, at: string) {
    const day = dayOf(at);
    const key = `${chain}\u0000${day}`;
    let d = this.days.get(key);
    if (d === undefined) {
      const empty = (): Figures => ({ count: 0, amounts: {} });
      d = {
        chain,
        day,
        seen: empty(),
        credited: empty(),
        payoutsCompleted: empty(),
        differences: [],
        sums: { seen: new Map(), credited: new Map(), payoutsCompleted: new Map() },
      };
      this.days.set(key, d);
    }
    return d;
  }

  add(chain: string, at: string, figure: 'seen' | 'credited' | 'payoutsCompleted', asset: string, amount: string) {
    const d = this.day(chain, at);
    d[figure].count++;
    const sums = d.sums[figure]!;
    sums.set(asset, (sums.get(asset) ?? new Decimal(0)).plus(amount));
  }

  differ(chain: string, diff: Difference) {
    this.day(chain, diff.at).differences.push(diff);
  }

  /** Chains by symbol, days oldest first; each figure's amounts by asset. */
  result(): ReconciliationDay[] {
    return [...this.days.values()]
      .sort((a, b) => (a.chain === b.chain ? a.day.localeCompare(b.day) : a.chain.localeCompare(b.chain)))
      .map(({ sums, ...d }) => {
        for (const f of ['seen', 'credited', 'payoutsCompleted'] as const)
          d[f].amounts = Object.fromEntries(
            [...sums[f]!.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, decimalText(v)]),
          );
        return d;
      });
  }
}

/** Counted in `credited`: the payments report's `credited` (the settlement's option), or every unretracted payment of a checkout an operator settled without one. */
function isCredited(t: ReconTransfer): boolean {
  if (t.retracted === 1 || t.credited_posting_id === null) return false;
  return t.settled_option_id === null || t.option_id === t.settled_option_id;
}

/** Why a transfer a watcher saw is not credited: the first that applies. */
function notCreditedReason(t: ReconTransfer): Pick<Difference, 'reason' | 'detail'> {
  const detail = [t.checkout_status, t.exception].filter((x) => x !== null).join(', ') || null;
  if (t.retracted === 1) return { reason: 'retracted', detail };
  if (t.checkout_id === null) return { reason: 'unmatched', detail };
  if (t.checkout_status === 'needs_review') return { reason: 'in_review', detail };
  if (t.confirmations_required !== null && t.confirmations < t.confirmations_required)
    return { reason: 'awaiting_confirmations', detail: `${t.confirmations} of ${t.confirmations_required}` };
  return { reason: 'not_credited', detail };
}

function transferDiff(t: ReconTransfer, why: Pick<Difference, 'reason' | 'detail'>, counted: boolean): Difference {
  return {
    kind: 'transfer',
    ...why,
    transferId: t.id,
    checkoutId: t.checkout_id,
    payoutId: null,
    txHash: t.tx_hash,
    asset: t.asset,
    amount: t.amount,
    counted,
    at: t.detected_at,
  };
}

async function weighTransfers(store: Pick<Store, 'db' | 'dialect'>, range: TimeRange, book: Book): Promise<void> {
  let after: Cursor | null = null;
  for (;;) {
    const rows = await transfersPage(store.db, store.dialect, range, after, PAGE);
    const byHand = await reportedByHand(
      store.db,
      rows.map((r) => r.id),
    );
    for (const t of rows) {
      const credited = isCredited(t);
      if (credited) book.add(t.chain, t.detected_at, 'credited', t.asset, t.amount);
      if (byHand.has(t.id)) {
        // No watcher saw it: not in `seen`; listed whether or not it was credited.
        book.differ(t.chain, transferDiff(t, { reason: 'reported_by_hand', detail: t.checkout_status }, credited));
        continue;
      }
      book.add(t.chain, t.detected_at, 'seen', t.asset, t.amount);
      if (!credited) book.differ(t.chain, transferDiff(t, notCreditedReason(t), false));
    }
    const last = rows[rows.length - 1];
    if (rows.length < PAGE || last === undefined) return;
    after = { at: last.detected_at, id: last.id };
  }
}

function payoutDiff(e: ReconPayoutEntry, why: Pick<Difference, 'reason' | 'detail'>, counted: boolean): Difference {
  return {
    kind: 'payout',
    ...why,
    transferId: null,
    checkoutId: null,
    payoutId: e.payout_id,
    txHash: e.tx_hash,
    asset: e.asset,
    amount: e.amount,
    counted,
    at: e.at,
  };
}

/**
 * Payouts by their latest entry in the range: completed (counted; by hand when an operator
 * reported its transaction or confirmed it), sent and not completed (awaiting confirmations, or
 * retracted when a reorganisation took its transaction out), waiting for approval (in review).
 * An entry that is not the payout's latest is history and ignored.
 */
async function weighPayouts(store: Pick<Store, 'db' | 'dialect'>, range: TimeRange, book: Book): Promise<void> {
  for (const status of PAYOUT_ENTRY_STATUSES) {
    let after: Cursor | null = null;
    for (;;) {
      const rows = await payoutEntriesPage(store.db, store.dialect, status, range, after, PAGE);
      const histories = await payoutHistories(
        store.db,
        rows.map((r) => r.payout_id),
      );
      for (const e of rows) {
        const h = histories.get(e.payout_id);
        if (h === undefined || h.lastSeq !== e.seq || e.status !== status) continue;
        if (status === 'completed') {
          book.add(e.chain, e.at, 'payoutsCompleted', e.asset, e.amount);
          if (h.byHand) book.differ(e.chain, payoutDiff(e, { reason: 'reported_by_hand', detail: e.status }, true));
        } else if (status === 'sent') {
          const reorg = h.lastReason === 'reorganisation';
          book.differ(
            e.chain,
            payoutDiff(e, { reason: reorg ? 'retracted' : 'awaiting_confirmations', detail: e.status }, false),
          );
        } else book.differ(e.chain, payoutDiff(e, { reason: 'in_review', detail: e.status }, false));
      }
      const last = rows[rows.length - 1];
      if (rows.length < PAGE || last === undefined) break;
      after = { at: last.at, id: last.payout_id };
    }
  }
}

/**
 * Per chain and UTC day of the range: the transfers watchers saw, what was credited, the payouts
 * completed with their hashes, and every difference with its reason (docs/reports.md). Read a
 * page at a time; what is held is the days and their differences.
 */
export async function reconcile(store: Pick<Store, 'db' | 'dialect'>, range: TimeRange): Promise<Reconciliation> {
  const book = new Book();
  await weighTransfers(store, range, book);
  await weighPayouts(store, range, book);
  return { ...range, days: book.result() };
}
