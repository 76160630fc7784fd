import { Readable } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import { REPORT_COLUMNS, type ReportFormat, type ReportKind } from '@hostpay/protocol';
import { HostpayError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { checkoutsPage, feesPage, paymentsReader } from './checkout-pages.js';
import { csvChunk, ndjsonChunk } from './format.js';
import { ledgerReader } from './ledger-pages.js';
import { operatorColumns, withMerchantIds } from './merchant-column.js';
import type { Page, PageReader } from './page.js';
import { payoutsPage } from './payout-pages.js';
import type { TimeRange } from './range.js';

/** Rows per page: each page is one short query, so no transaction or snapshot is held for a download. */
export const PAGE_ROWS = 1000;

const READERS: Record<ReportKind, () => PageReader> = {
  checkouts: () => checkoutsPage,
  payments: paymentsReader,
  payouts: () => payoutsPage,
  ledger: ledgerReader,
  fees: () => feesPage,
};

export interface ReportRequest {
  merchantId: string | null;
  kind: ReportKind;
  format: ReportFormat;
  range: TimeRange;
  pageRows?: number;
  /** The operator's report: every row also names its merchant, in a last column `merchantId`. */
  merchantColumn?: boolean;
  /** Called after each page is read (tests count the queries a download made). */
  onPage?: () => void;
}

/**
 * A report as a byte stream. The first page is read before this returns, so an error found
 * before the first byte is an ordinary error answer; later pages are read only when the consumer
 * asks for more (Readable.from pulls the generator on demand: a slow client holds one page in
 * memory, not the range), and destroying the stream (the client went away) ends the generator
 * before its next query. `release` runs once, however the stream ends.
 */
export async function reportStream(
  store: Pick<Store, 'db' | 'dialect'> & Partial<Pick<Store, 'arrayRows'>>,
  req: ReportRequest,
  release: () => void,
): Promise<Readable> {
  const read = req.merchantColumn ? withMerchantIds(req.kind, READERS[req.kind](), store.db) : READERS[req.kind]();
  const columns = req.merchantColumn ? operatorColumns(req.kind) : REPORT_COLUMNS[req.kind];
  const limit = req.pageRows ?? PAGE_ROWS;
  const next = async (after: Page['last']) => {
    const page = await read({
      db: store.db,
      dialect: store.dialect,
      merchantId: req.merchantId,
      range: req.range,
      after,
      limit,
      arrayRows: store.arrayRows,
    });
    req.onPage?.();
    return page;
  };
  let first: Page;
  try {
    first = await next(null);
  } catch (err) {
    release();
    throw err;
  }
  const encode = (page: Page, header: boolean) =>
    req.format === 'csv'
      ? csvChunk(req.kind, page.rows, header, req.merchantColumn ? columns : undefined)
      : ndjsonChunk(req.kind, page.rows, columns);
  // The next page is asked for before the current one is encoded and handed on, so the store's
  // round trip overlaps the encoding: at most two pages are held, whatever the range.
  async function* chunks(): AsyncGenerator<string> {
    let page = first;
    let header = true;
    for (;;) {
      const more = page.rows.length === limit && page.last !== null;
      const pending = more ? next(page.last) : undefined;
      // An abandoned prefetch must not become an unhandled rejection.
      pending?.catch(() => undefined);
      if (page.rows.length > 0 || header) yield encode(page, header);
      header = false;
      if (pending === undefined) return;
      page = await pending;
      // A turn of the event loop between pages: SQLite reads synchronously, and a download to a
      // consumer that never pushes back ran a million rows in promise callbacks alone, with the
      // server's timers, sockets and V8's own collection tasks waiting for its end.
      await turn();
    }
  }
  const stream = Readable.from(chunks(), { objectMode: false });
  let released = false;
  const once = () => {
    if (released) return;
    released = true;
    release();
  };
  stream.once('close', once);
  return stream;
}

/** At most `max` open report streams per merchant in this instance; past that 429 RATE_LIMITED. */
export function streamSlots(max: number) {
  const open = new Map<string, number>();
  return {
    take(merchantId: string): () => void {
      const n = open.get(merchantId) ?? 0;
      if (n >= max)
        throw new HostpayError(
          'RATE_LIMITED',
          `at most ${max} report downloads per merchant at once: wait for one to finish, then retry`,
          { limit: max },
          { 'retry-after': '5' },
        );
      open.set(merchantId, n + 1);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (open.get(merchantId) ?? 1) - 1;
        if (left === 0) open.delete(merchantId);
        else open.set(merchantId, left);
      };
    },
    openFor: (merchantId: string) => open.get(merchantId) ?? 0,
  };
}
