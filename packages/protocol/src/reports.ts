import { Type, type Static } from '@sinclair/typebox';
import { DECIMAL_FORMAT } from './schemas.js';

/**
 * Reports, statements and search on the wire (spec/commerce.md, "Reports, statements, search").
 * The column lists are published: add at the end, never reorder or rename.
 */
export const REPORT_PATHS = {
  report: '/api/v1/cp/reports/:kind',
  statement: '/api/v1/cp/reports/statement',
  search: '/api/v1/cp/search',
} as const;

export const REPORT_KINDS = ['checkouts', 'payments', 'payouts', 'ledger', 'fees'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_COLUMNS = {
  checkouts: [
    'id',
    'createdAt',
    'status',
    'reason',
    'orderId',
    'paymentLinkId',
    'invoiceId',
    'currency',
    'amount',
    'settledAt',
    'asset',
    'chain',
    'received',
    'rate',
    'fee',
    'net',
    'customerEmail',
  ],
  payments: [
    'checkoutId',
    'orderId',
    'detectedAt',
    'chain',
    'asset',
    'txHash',
    'index',
    'address',
    'amount',
    'confirmations',
    'retracted',
    'credited',
    'currency',
    'rate',
    'valueInCurrency',
  ],
  payouts: [
    'id',
    'createdAt',
    'status',
    'refundOf',
    'reference',
    'walletId',
    'chain',
    'asset',
    'amount',
    'networkFee',
    'total',
    'destination',
    'txHash',
    'completedAt',
  ],
  ledger: [
    'postingId',
    'postedAt',
    'walletId',
    'chain',
    'asset',
    'kind',
    'amount',
    'balanceAfter',
    'freezeAmountAfter',
    'checkoutId',
    'payoutId',
  ],
  fees: [
    'checkoutId',
    'settledAt',
    'currency',
    'amount',
    'feeCurrency',
    'serviceFee',
    'onChainFee',
    'fee',
    'asset',
    'feeInAsset',
  ],
} as const satisfies Record<ReportKind, readonly string[]>;

/**
 * The columns holding exact decimals, in every kind: written as stored in CSV, as exact JSON
 * numbers in NDJSON, never neutralised as formulas. Published with the columns.
 */
export const REPORT_DECIMAL_COLUMNS = [
  'amount',
  'received',
  'rate',
  'fee',
  'net',
  'valueInCurrency',
  'networkFee',
  'total',
  'balanceAfter',
  'freezeAmountAfter',
  'serviceFee',
  'onChainFee',
  'feeInAsset',
] as const;

/** The columns holding UTC ISO 8601 times, in every kind: never neutralised either. */
export const REPORT_TIME_COLUMNS = ['createdAt', 'settledAt', 'detectedAt', 'completedAt', 'postedAt'] as const;

/** One report row: every column, a string (exact decimals and ISO times as written), a number, a boolean or null. */
export type ReportRow = Record<string, string | number | boolean | null>;

/** The read scope a report kind needs besides `reports:read`. */
export const REPORT_KIND_SCOPE = {
  checkouts: 'checkout:read',
  payments: 'checkout:read',
  payouts: 'payouts:read',
  ledger: 'checkout:read',
  fees: 'checkout:read',
} as const satisfies Record<ReportKind, string>;

/** How many report streams one merchant may have open at once (more: 429 RATE_LIMITED). */
export const REPORT_STREAMS_PER_MERCHANT = 2;
/** Ranges are `from` inclusive, `to` exclusive, at most this long. */
export const REPORT_MAX_RANGE_DAYS = 366;

const Amount = (description: string) =>
  Type.Number({ format: DECIMAL_FORMAT, description: `${description} (exact decimal)` });

export const StatementLine = Type.Object(
  {
    walletId: Type.String(),
    asset: Type.String(),
    chain: Type.String(),
    opening: Amount('balance at the first instant of the month'),
    credits: Amount('sum of the credit postings of the month (settlement credits are net of fees)'),
    debits: Amount('sum of the debit postings of the month'),
    fees: Amount(
      'service fees withheld from the month’s settlements into this wallet, for information (outside the equation)',
    ),
    closing: Amount('balance at the month’s end = opening + credits − debits'),
    frozenAtClose: Amount('amount frozen at the month’s end'),
  },
  { additionalProperties: false },
);
export type StatementLine = Static<typeof StatementLine>;

export const Statement = Type.Object(
  {
    month: Type.String({ pattern: '^\\d{4}-\\d{2}$' }),
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time' }),
    wallets: Type.Array(StatementLine),
  },
  { additionalProperties: false },
);
export type Statement = Static<typeof Statement>;

export const SEARCH_HIT_TYPES = ['checkout', 'payout', 'invoice', 'payment_link'] as const;
export type SearchHitType = (typeof SEARCH_HIT_TYPES)[number];

export const SearchHit = Type.Object(
  {
    type: Type.Union(SEARCH_HIT_TYPES.map((t) => Type.Literal(t))),
    id: Type.String(),
    summary: Type.String({ description: 'one line for a person: status, amount, what matched' }),
  },
  { additionalProperties: false },
);
export type SearchHit = Static<typeof SearchHit>;

/**
 * Why a transfer or payout is a difference between what the chains show and what the books
 * hold (GET /admin/v1/reports/reconciliation; docs/reports.md, "Reconciliation").
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
export interface ReconciliationFigures {
  count: number;
  amounts: Record<string, string>;
}

export interface ReconciliationDifference {
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
  seen: ReconciliationFigures;
  credited: ReconciliationFigures;
  payoutsCompleted: ReconciliationFigures;
  differences: ReconciliationDifference[];
}

/** The answer of GET /admin/v1/reports/reconciliation. */
export interface Reconciliation {
  from: string;
  to: string;
  days: ReconciliationDay[];
}
