import type { Readable } from 'node:stream';
import {
  jsonDecimal,
  REPORT_STREAMS_PER_MERCHANT,
  type ReportFormat,
  type ReportKind,
  type SearchHit,
} from '@hostpay/protocol';
import type { Store } from '../../store/store.js';
import { fileTime, monthRange, readRange } from './range.js';
import { checkoutSource, payoutSource, search, type SearchSource } from './search.js';
import { statement, type StatementLineText } from './statement.js';
import { reportStream, streamSlots } from './stream.js';

export interface ReportDownload {
  filename: string;
  contentType: string;
  stream: Readable;
}

const AMOUNT_FIELDS = ['opening', 'credits', 'debits', 'fees', 'closing', 'frozenAtClose'] as const;

const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

/** The search's own sources; the features that own other kinds add theirs through `searchSources`. */
export const SEARCH_SOURCES: readonly SearchSource[] = [checkoutSource, payoutSource];

export interface ReportService {
  /** A report download; 400 INVALID_QUERY for a bad range, 429 past the streams allowed per merchant. */
  download(
    merchantId: string,
    kind: ReportKind,
    query: { from?: string | undefined; to?: string | undefined; format?: ReportFormat | undefined },
    nowMs: number,
  ): Promise<ReportDownload>;
  /** The month's statement; amounts as exact JSON numbers (`jsonDecimal`). */
  statement(
    merchantId: string,
    month: string | undefined,
  ): Promise<{ month: string; from: string; to: string; wallets: Record<keyof StatementLineText, unknown>[] }>;
  search(merchantId: string, q: string, limit: number, sources: readonly SearchSource[]): Promise<SearchHit[]>;
  /** Every kind search reads, in the order their hits are gathered: its own, then the contributed. */
  searchSources(): readonly SearchSource[];
  /** Report streams open for the merchant in this instance (tests, the 429). */
  openStreams(merchantId: string): number;
}

export function reportService(
  store: Store,
  opts: { pageRows?: number; contributed?: () => readonly SearchSource[] } = {},
): ReportService {
  const slots = streamSlots(REPORT_STREAMS_PER_MERCHANT);
  return {
    async download(merchantId, kind, query, nowMs) {
      const range = readRange(query.from, query.to, nowMs);
      const format = query.format ?? 'csv';
      const release = slots.take(merchantId);
      const stream = await reportStream(
        store,
        { merchantId, kind, format, range, ...(opts.pageRows === undefined ? {} : { pageRows: opts.pageRows }) },
        release,
      );
      const ext = format === 'csv' ? 'csv' : 'ndjson';
      return {
        filename: `hostpay-${kind}-${fileTime(range.from)}-${fileTime(range.to)}.${ext}`,
        contentType: CONTENT_TYPES[format],
        stream,
      };
    },
    async statement(merchantId, month) {
      const range = monthRange(month);
      const lines = await statement(store.db, store.dialect, merchantId, range);
      // Amounts as exact JSON numbers, as every answer writes them.
      const wallets = lines.map((l) => ({
        ...l,
        ...Object.fromEntries(AMOUNT_FIELDS.map((f) => [f, jsonDecimal(l[f])])),
      }));
      return { month: month!, ...range, wallets };
    },
    search: (merchantId, q, limit, sources) => search(store.db, merchantId, sources, q, limit),
    searchSources: () => [...SEARCH_SOURCES, ...(opts.contributed?.() ?? [])],
    openStreams: (merchantId) => slots.openFor(merchantId),
  };
}
