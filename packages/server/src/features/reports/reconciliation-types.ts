/** The audit name chain watchers report transfers under (features/chain-watch WATCHER_AUDIT). */
export const WATCHER_OPERATOR = 'chain-watch';

/**
 * Why a transfer or payout is a difference between what the chains show and what the books
 * hold (docs/reports.md, "Reconciliation").
 */
export const RECONCILIATION_REASONS = [
  'reported_by_hand',
  'retracted',
  'awaiting_confirmations',
  'in_review',
  'unmatched',
  'not_credited',
] as const;
export type ReconciliationReason = (typeof RECONCILIATION_REASONS)[number];

/** How many and how much, per asset (exact decimal text). */
export interface Figures {
  count: number;
  amounts: Record<string, string>;
}

export interface Difference {
  kind: 'transfer' | 'payout';
  reason: ReconciliationReason;
  /** What else the row says: the checkout's status and the transfer's exception, or the payout's status. */
  detail: string | null;
  transferId: string | null;
  checkoutId: string | null;
  payoutId: string | null;
  txHash: string | null;
  asset: string;
  amount: string;
  /** Whether it counts in `credited` (transfers) or `payoutsCompleted` (payouts). */
  counted: boolean;
  at: string;
}

export interface ReconciliationDay {
  chain: string;
  day: string;
  seen: Figures;
  credited: Figures;
  payoutsCompleted: Figures;
  differences: Difference[];
}

export interface Reconciliation {
  from: string;
  to: string;
  days: ReconciliationDay[];
}
