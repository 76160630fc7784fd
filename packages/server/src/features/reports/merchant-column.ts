import { REPORT_COLUMNS, type ReportKind, type ReportRow } from '@hostpay/protocol';
import type { Db } from '../../store/store.js';
import { ReportRecord, type PageReader } from './page.js';

/** The column operator reports add after the published ones: whose row it is (docs/reports.md). */
export const MERCHANT_COLUMN = 'merchantId';

/** An operator report's columns: the kind's, then `merchantId` (columns are only ever added at the end). */
export function operatorColumns(kind: ReportKind): readonly string[] {
  return [...REPORT_COLUMNS[kind], MERCHANT_COLUMN];
}

/** What names the merchant of a row of each kind: the table and the row's column holding its id. */
const OWNER: Record<ReportKind, { table: 'checkouts' | 'payouts' | 'wallets'; column: string }> = {
  checkouts: { table: 'checkouts', column: 'id' },
  payments: { table: 'checkouts', column: 'checkoutId' },
  payouts: { table: 'payouts', column: 'id' },
  ledger: { table: 'wallets', column: 'walletId' },
  fees: { table: 'checkouts', column: 'checkoutId' },
};

/**
 * A page reader whose rows also carry `merchantId`: one primary-key lookup per page of the ids
 * the page names, so the kinds' own queries stay as the merchant reports run them.
 */
export function withMerchantIds(kind: ReportKind, read: PageReader, db: Db): PageReader {
  const { table, column } = OWNER[kind];
  return async (req) => {
    const page = await read(req);
    const ids = [...new Set(page.rows.map((r) => r[column]).filter((v): v is string => typeof v === 'string'))];
    const owners =
      ids.length === 0 ? [] : await db.selectFrom(table).select(['id', 'merchant_id']).where('id', 'in', ids).execute();
    const byId = new Map(owners.map((o) => [o.id, o.merchant_id]));
    const rows: ReportRow[] = page.rows.map((r) => {
      const id = r[column];
      // A record, not a spread literal (page.ts, ReportRecord, says why).
      const row = new ReportRecord(r);
      row[MERCHANT_COLUMN] = typeof id === 'string' ? (byId.get(id) ?? null) : null;
      return row;
    });
    return { rows, last: page.last };
  };
}
